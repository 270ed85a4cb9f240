import { Elysia, t } from 'elysia'
import type { Logger } from '../../application/ports/logger'
import type { UseCases } from '../../application/use-cases'
import { SEARCH_TOTAL_BOUND } from '../../domain/constituents/search'
import { csvAttachment, csvResponses, exportFilename, NEED_COLUMNS } from './exports'
import { importDocumentation, importing, ImportQuery } from './imports'
import type { AuthenticationPlugin } from './authentication'
import { BoundedPagedList, IdempotencyHeaders, PagedList, PageQuery, problems, Uuid } from './common.schemas'
import {
  BulkUpdateNeedsBody,
  BulkUpdateResultsSchema,
  bulkResultsView,
  CreatedNeedSchema,
  CreateNeedBody,
  ExportNeedsQuery,
  needFilterOf,
  InteractionSchema,
  interactionView,
  ListNeedsQuery,
  NeedIdOrReferenceParams,
  NeedChangeSchema,
  needChangeView,
  NeedDetailSchema,
  NeedSchema,
  needView,
  NoteBody,
  PublicNeedBody,
  PublicNeedSchema,
  SmsBody,
  UpdateNeedBody,
  withDueDate,
} from './needs.schemas'
import { pagedResponse } from './paging'
import { rateLimited, tooManyRequests, type RateLimits } from './rate-limits'
import type { RequestSite } from './request-site'

// docs/api/needs.md "Needs"
export function needsRoutes(
  useCases: UseCases['needs'],
  authentication: AuthenticationPlugin,
  rateLimits: RateLimits,
  requestSite: RequestSite,
  logger: Logger,
) {
  const {
    create,
    submitPublic,
    list,
    export: exportNeeds,
    import: importNeeds,
    get,
    update,
    bulkUpdate,
    addNote,
    listInteractions,
    listHistory,
    sendSms,
  } = useCases

  return new Elysia({ name: 'needs', prefix: '/api/needs', detail: { tags: ['Needs'] } })
    .use(authentication)
    .use(rateLimits)
    .use(requestSite)
    .post(
      '/public',
      async ({ body, headers, request, set, foreignOriginOf }) => {
        const need = await submitPublic.execute(body, { fromOrigin: foreignOriginOf(request), idempotencyKey: headers['idempotency-key'] })
        set.status = 201
        return needView(need)
      },
      {
        rateLimit: 'publicIntake',
        headers: IdempotencyHeaders,
        body: PublicNeedBody,
        response: rateLimited({ 201: PublicNeedSchema, ...problems(400, 403, 409, 413, 415, 422) }),
        detail: {
          operationId: 'submitPublicNeed',
          summary: 'Anonymous need intake',
          description:
            "No credentials: a web form or a partner's site names the organization by `organizationId` or `organizationSlug`. Limited per client address; routed by keywords when no partner is given. The answer tells nothing of who else is on file. A page on another site may make a browser send it only from an origin in the organization's `formOrigins`, else 403.",
          security: [],
        },
      },
    )
    .post(
      '',
      async ({ actor, body, headers, set }) => {
        set.status = 201
        return needView(await create.execute(actor, withDueDate(body), headers['idempotency-key']))
      },
      {
        auth: true,
        headers: IdempotencyHeaders,
        body: CreateNeedBody,
        response: { 201: CreatedNeedSchema, ...problems(400, 401, 403, 404, 409, 413, 415, 422) },
        detail: {
          operationId: 'createNeed',
          summary: 'Create a need',
          description:
            'Caseworker roles and intake_staff; partner roles for their own partner only. Contact keys in `customFields` register a constituent, checked for duplicates (`possibleDuplicates` in the answer).',
        },
      },
    )
    .get(
      '',
      ({ actor, query, request, set }) =>
        pagedResponse({ query, request, set }, (page) => list.execute(actor, needFilterOf(query), page, query.sort), needView),
      {
        auth: true,
        query: ListNeedsQuery,
        response: { 200: BoundedPagedList(NeedSchema, SEARCH_TOTAL_BOUND), ...problems(400, 401, 403) },
        detail: {
          operationId: 'listNeeds',
          summary: 'List and search needs, newest first; paging in X-Total-Count and Link',
          description: `Every role; partner roles see their own partner's needs only. Filters by status list, partner, assignee and constituent, and open needs by due date: \`overdue=true\` (past due now) and \`dueBefore\`, which list soonest due first unless \`sort\` is given; by when needs were created or resolved (\`createdFrom\`, \`createdTo\`, \`resolvedFrom\`, \`resolvedTo\`: from included, to excluded). \`q\` finds needs by word prefixes of the reference number, the description and the person's name, each only where the caller may read it (a confidential need's description with needs:read-confidential, names with the right to read constituents); with \`q\`, the total is counted up to ${SEARCH_TOTAL_BOUND.toLocaleString('en-US')} (or to the end of the page asked for): past it X-Total-Count-Is-Lower-Bound says more match, and Link has no last.`,
        },
      },
    )
    .post('/import', importing(importNeeds), {
      auth: true,
      query: ImportQuery,
      response: importDocumentation('needs').response,
      detail: {
        operationId: 'importNeeds',
        summary: "Import needs from a CSV file of the export's columns and description; a dry run answers what it would do",
        description:
          'org_admin. Each row is recorded as an intake by staff is, on its original date (createdAt, required), for the partner partnerId names by id or name (the default partner when empty). A row with the same original time and customFields as a need on file, or as an earlier row, is skipped, so importing a file twice creates nothing new.',
        requestBody: importDocumentation('needs').requestBody,
      },
    })
    .post('/bulk', async ({ actor, body }) => bulkResultsView(await bulkUpdate.execute(actor, body)), {
      auth: true,
      body: BulkUpdateNeedsBody,
      response: { 200: BulkUpdateResultsSchema, ...problems(400, 401, 403, 413, 415) },
      detail: {
        operationId: 'bulkUpdateNeeds',
        summary: 'Set the status, assignee or partner of up to 100 needs at once; a result per need',
        description:
          'Who may `PUT /api/needs/{id}`. Each need is changed as that route would change it alone (its own transaction, checks, audit event and history); one refused stops none of the others. Each result has the status the single update would have answered and, unless 200, its problem: a need the caller may not see is 404. More than 100 ids, an id twice or an empty `set` is 400 and changes nothing.',
      },
    })
    .get(
      '/export',
      async ({ actor, query }) =>
        csvAttachment(exportFilename('needs'), NEED_COLUMNS, await exportNeeds.execute(actor, needFilterOf(query)), logger),
      {
        auth: true,
        query: ExportNeedsQuery,
        response: csvResponses('Every need the filters match'),
        detail: {
          operationId: 'exportNeeds',
          summary: 'Export needs as a CSV file, newest first, with the list filters',
          description:
            "org_admin, or a role holding pii_reader; partner roles export their own partner's needs only. Every need the list would show, streamed; redacted as the list.",
        },
      },
    )
    .get('/:id', async ({ actor, params }) => needView(await get.execute(actor, params.id)), {
      auth: true,
      params: NeedIdOrReferenceParams,
      response: { 200: NeedDetailSchema, ...problems(400, 401, 403, 404) },
      detail: {
        operationId: 'getNeed',
        summary: 'Read a need by id or reference number',
        description:
          "Every role, within its visibility (partner roles: their own partner's needs); `customFields` of a confidential need only with the permission.",
      },
    })
    .put('/:id', async ({ actor, params, body }) => needView(await update.execute(actor, params.id, withDueDate(body))), {
      auth: true,
      params: NeedIdOrReferenceParams,
      body: UpdateNeedBody,
      response: { 200: NeedSchema, ...problems(400, 401, 403, 404, 409, 413, 415) },
      detail: {
        operationId: 'updateNeed',
        summary: 'Update status or metadata',
        description:
          "Caseworker roles and needs_processor. Takes the UUID or the reference number. Any status may move to any other but RESOLVED, which may only reopen to IN_PROGRESS (409 otherwise); every change is kept in the history. `dueDate` sets the due date by hand, null returns it to the partner's SLA.",
      },
    })
    .post(
      '/:id/notes',
      async ({ actor, params, body, headers, set }) => {
        set.status = 201
        return interactionView(await addNote.execute(actor, params.id, body.content, headers['idempotency-key']))
      },
      {
        auth: true,
        params: NeedIdOrReferenceParams,
        headers: IdempotencyHeaders,
        body: NoteBody,
        response: { 201: InteractionSchema, ...problems(400, 401, 403, 404, 409, 413, 415, 422) },
        detail: {
          operationId: 'addNote',
          summary: 'Add an internal note',
          description: 'Every role that sees the need; takes the UUID or the reference number.',
        },
      },
    )
    .post(
      '/:id/sms',
      async ({ actor, params, body, headers, set }) => {
        set.status = 202
        return sendSms.execute(actor, params.id, body.body, headers['idempotency-key'])
      },
      {
        auth: true,
        params: NeedIdOrReferenceParams,
        headers: IdempotencyHeaders,
        body: SmsBody,
        response: {
          202: t.Object({ interactionId: Uuid }),
          ...problems(400, 401, 403, 404, 409, 413, 415, 422),
          ...tooManyRequests(),
        },
        detail: {
          operationId: 'sendSms',
          summary: "Text the need's constituent; queued, sent by the outbox",
          description:
            'org_admin or sms_communicator. Answers 202 with the interaction; the worker sends it. 429 with Retry-After past the texts one member may send, or one number may be sent, within an hour.',
        },
      },
    )
    .get(
      '/:id/interactions',
      ({ actor, params, query, request, set }) =>
        pagedResponse({ query, request, set }, (page) => listInteractions.execute(actor, params.id, page), interactionView),
      {
        auth: true,
        params: NeedIdOrReferenceParams,
        query: t.Object(PageQuery, { additionalProperties: false }),
        response: { 200: PagedList(InteractionSchema), ...problems(400, 401, 403, 404) },
        detail: {
          operationId: 'listInteractions',
          summary: 'Notes and messages of a need, oldest first; paging in X-Total-Count and Link',
          description: "Every role that sees the need; the content of a confidential need's interactions only with the permission. Paged.",
        },
      },
    )
    .get(
      '/:id/history',
      ({ actor, params, query, request, set }) =>
        pagedResponse({ query, request, set }, (page) => listHistory.execute(actor, params.id, page), needChangeView),
      {
        auth: true,
        params: NeedIdOrReferenceParams,
        query: t.Object(PageQuery, { additionalProperties: false }),
        response: { 200: PagedList(NeedChangeSchema), ...problems(400, 401, 403, 404) },
        detail: {
          operationId: 'listNeedHistory',
          summary: 'Every recorded change of a need, oldest first: status, assignee, partner, confidentiality, due date',
          description:
            'Every role that sees the need, as `GET /api/needs/{id}`; takes the UUID or the reference number. Each change: field, from, to, who, when. Paged.',
        },
      },
    )
}
