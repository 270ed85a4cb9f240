import { Elysia, t } from 'elysia'
import type { Logger } from '../../application/ports/logger'
import type { UseCases } from '../../application/use-cases'
import type { AuthenticationPlugin } from './authentication'
import { BoundedPagedList, IdParams, List, PagedList, PageQuery, problems } from './common.schemas'
import { SEARCH_TOTAL_BOUND } from '../../domain/constituents/search'
import {
  ConstituentDetailSchema,
  ConstituentSchema,
  constituentView,
  CreatedConstituentSchema,
  CreateConstituentBody,
  DuplicateCheckBody,
  DuplicateCheckSchema,
  ExportConstituentsQuery,
  HouseholdMatchSchema,
  MatchesQuery,
  matchView,
  MergeBody,
  ResolveMatchBody,
  SearchQuery,
  UpdateConstituentBody,
} from './constituents.schemas'
import { NeedSchema, needView } from './needs.schemas'
import { CONSTITUENT_COLUMNS, csvAttachment, csvResponses, exportFilename } from './exports'
import { importDocumentation, importing, ImportQuery } from './imports'
import { pagedResponse } from './paging'

// docs/constituents.md
export function constituentsRoutes(useCases: UseCases['constituents'], authentication: AuthenticationPlugin, logger: Logger) {
  const {
    search,
    checkDuplicates,
    export: exportConstituents,
    import: importConstituents,
    get,
    create,
    update,
    listNeeds,
    household,
    merge,
    erase,
    listMatches,
    resolve,
  } = useCases

  const constituents = new Elysia({ name: 'constituents', prefix: '/api/constituents', detail: { tags: ['Constituents'] } })
    .use(authentication)
    .get(
      '',
      ({ actor, query, request, set }) =>
        pagedResponse({ query, request, set }, (page) => search.execute(actor, query.query, page), constituentView),
      {
        auth: true,
        query: SearchQuery,
        response: { 200: BoundedPagedList(ConstituentSchema, SEARCH_TOTAL_BOUND), ...problems(400, 401, 403) },
        detail: {
          operationId: 'searchConstituents',
          summary: 'Search constituents by name prefix, phone digits or email; newest first',
          description: `Caseworker roles and intake_staff. Searching by phone or email needs the permission to read them; fields come back redacted by role. Paged. With a query, the total is counted up to ${SEARCH_TOTAL_BOUND.toLocaleString('en-US')} (or to the end of the page asked for): past it X-Total-Count-Is-Lower-Bound says more match, and Link has no last. Without a query it is exact.`,
        },
      },
    )
    .get(
      '/export',
      async ({ actor, query }) =>
        csvAttachment(exportFilename('constituents'), CONSTITUENT_COLUMNS, await exportConstituents.execute(actor, query.query), logger),
      {
        auth: true,
        query: ExportConstituentsQuery,
        response: csvResponses('Every constituent the query matches'),
        detail: {
          operationId: 'exportConstituents',
          summary: 'Export constituents as a CSV file, newest first, matched as the search matches',
          description:
            'org_admin, or a caseworker role (or intake_staff) holding pii_reader. Every constituent the search would find, streamed; phone, email, address and date of birth redacted as the search does, their columns then empty.',
        },
      },
    )
    .post('/import', importing(importConstituents), {
      auth: true,
      query: ImportQuery,
      response: importDocumentation('constituents').response,
      detail: {
        operationId: 'importConstituents',
        summary: "Import constituents from a CSV file of the export's columns; a dry run answers what it would do",
        description:
          'org_admin. Each row is checked as a creation is; a row that is someone on file (same phone, same email, or same name and date of birth) or an earlier row is skipped, so importing a file twice creates nothing new. Created in batches, each committed on its own; duplicate detection runs as on every creation.',
        requestBody: importDocumentation('constituents').requestBody,
      },
    })
    .post(
      '',
      async ({ actor, body, set }) => {
        set.status = 201
        return constituentView(await create.execute(actor, body))
      },
      {
        auth: true,
        body: CreateConstituentBody,
        response: { 201: CreatedConstituentSchema, ...problems(400, 401, 403, 413, 415) },
        detail: {
          operationId: 'createConstituent',
          summary: 'Register a constituent; the answer names who it may be already',
          description:
            'Caseworker roles and intake_staff. Checked for duplicates: the answer carries `possibleDuplicates` and `duplicateWarning` when someone alike is on file by a detail the caller may read (the others are not matched on for the answer), and opens household matches on every detail.',
        },
      },
    )
    .post('/merge', async ({ actor, body }) => constituentView(await merge.execute(actor, body)), {
      auth: true,
      body: MergeBody,
      response: { 200: ConstituentSchema, ...problems(400, 401, 403, 404, 409, 413, 415) },
      detail: {
        operationId: 'mergeConstituents',
        summary: 'Merge the source constituent into the target',
        description:
          "org_admin or duplicate_resolver. The source's needs move to the target, the source is removed. An erased constituent on either side is 409.",
      },
    })
    .post('/:id/erase', async ({ actor, params }) => constituentView(await erase.execute(actor, params.id)), {
      auth: true,
      params: IdParams,
      response: { 200: ConstituentSchema, ...problems(400, 401, 403, 404) },
      detail: {
        operationId: 'eraseConstituent',
        summary: "Erase a person's details everywhere the service keeps them; their needs stay, linked to the emptied record",
        description:
          "org_admin. Names, phone, email, address and date of birth are removed from the record, its search terms, the household matches naming it, its needs' contact keys, its texts and the outbox's messages to it; the answer is the emptied record with `erasedAt`. Erasing again changes nothing. Out of its reach: earlier backups, and what webhook receivers and message providers got before.",
      },
    })
    .post('/duplicate-check', ({ actor, body }) => checkDuplicates.execute(actor, body), {
      auth: true,
      body: DuplicateCheckBody,
      response: { 200: DuplicateCheckSchema, ...problems(400, 401, 403, 413, 415) },
      detail: {
        operationId: 'checkConstituentDuplicates',
        summary: 'Who a person with these details may be already, before registering them; stores nothing',
        description:
          'Caseworker roles and intake_staff. The candidates a creation with these details would name, by name, each with what they share. Only the details the caller may read are matched on (phone and email with `constituents:read-contact`, date of birth and street with `constituents:read-pii`): a phone, email, date of birth or street it may not read is ignored, so the answer is the same whether or not it is on file. Each candidate shown is a read in the audit trail, as after a creation. A POST so that the details stay out of addresses and logs.',
      },
    })
    .get('/:id', async ({ actor, params }) => constituentView(await get.execute(actor, params.id)), {
      auth: true,
      params: IdParams,
      response: { 200: ConstituentDetailSchema, ...problems(400, 401, 403, 404) },
      detail: {
        operationId: 'getConstituent',
        summary: 'Read a constituent; phone, email, address and date of birth as the caller may read them',
        description:
          "Caseworker roles and intake_staff; tenant-scoped (another organization's id is 404). Redacted exactly as search results.",
      },
    })
    .put('/:id', async ({ actor, params, body }) => constituentView(await update.execute(actor, params.id, body)), {
      auth: true,
      params: IdParams,
      body: UpdateConstituentBody,
      response: { 200: ConstituentSchema, ...problems(400, 401, 403, 404, 409, 413, 415) },
      detail: {
        operationId: 'updateConstituent',
        summary: 'Update constituent details (checked for duplicates again)',
        description:
          'Caseworker roles and intake_staff. Fields left out stay, `null` clears; a change of a matched field runs duplicate detection again.',
      },
    })
    .get(
      '/:id/needs',
      ({ actor, params, query, request, set }) =>
        pagedResponse({ query, request, set }, (page) => listNeeds.execute(actor, params.id, page), needView),
      {
        auth: true,
        params: IdParams,
        query: t.Object(PageQuery, { additionalProperties: false }),
        response: { 200: PagedList(NeedSchema), ...problems(400, 401, 403, 404) },
        detail: {
          operationId: 'listConstituentNeeds',
          summary: "A constituent's needs, newest first; other partners' details are emptied for partner roles",
          description: 'Caseworker roles and intake_staff. Paged.',
        },
      },
    )
    .get('/:id/household', async ({ actor, params }) => (await household.execute(actor, params.id)).map(constituentView), {
      auth: true,
      params: IdParams,
      response: { 200: List(ConstituentSchema), ...problems(400, 401, 403, 404) },
      detail: {
        operationId: 'getConstituentHousehold',
        summary: "The people of a constituent's household, the constituent among them (the first 100)",
        description: 'Caseworker roles and intake_staff. Each redacted exactly as search results.',
      },
    })

  const matches = new Elysia({ name: 'household-matches', prefix: '/api/household-matches', detail: { tags: ['Constituents'] } })
    .use(authentication)
    .get(
      '',
      ({ actor, query, request, set }) =>
        pagedResponse({ query, request, set }, (page) => listMatches.execute(actor, query.status, page), matchView),
      {
        auth: true,
        query: MatchesQuery,
        response: { 200: PagedList(HouseholdMatchSchema), ...problems(400, 401, 403) },
        detail: {
          operationId: 'listHouseholdMatches',
          summary: "Possible duplicates, newest first, with both people's names and the reasons",
          description:
            'org_admin or duplicate_resolver. Each match carries both people, redacted as the caller may read them, and its reasons. Paged.',
        },
      },
    )
    .post('/:id/resolve', async ({ actor, params, body }) => matchView(await resolve.execute(actor, params.id, body)), {
      auth: true,
      params: IdParams,
      body: ResolveMatchBody,
      response: { 200: HouseholdMatchSchema, ...problems(400, 401, 403, 404, 409, 413, 415) },
      detail: {
        operationId: 'resolveHouseholdMatch',
        summary: 'Merge the constituents, join the household, or dismiss',
        description: 'org_admin or duplicate_resolver. A match is decided once; a second decision is 409.',
      },
    })

  return new Elysia({ name: 'constituents-and-matches' }).use(constituents).use(matches)
}
