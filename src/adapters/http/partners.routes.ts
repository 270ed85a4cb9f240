import { Elysia, t } from 'elysia'
import type { UseCases } from '../../application/use-cases'
import type { AuthenticationPlugin } from './authentication'
import { IdParams, PagedList, PageQuery, problems } from './common.schemas'
import { pagedResponse } from './paging'
import { CreatePartnerBody, PartnerSchema, partnerView, UpdatePartnerBody } from './partners.schemas'

export function partnersRoutes(useCases: UseCases['partners'], authentication: AuthenticationPlugin) {
  const { list, create, update } = useCases

  return new Elysia({ name: 'partners', prefix: '/api/partners', detail: { tags: ['Partners'] } })
    .use(authentication)
    .get('', ({ actor, query, request, set }) => pagedResponse({ query, request, set }, (page) => list.execute(actor, page), partnerView), {
      auth: true,
      query: t.Object(PageQuery, { additionalProperties: false }),
      response: { 200: PagedList(PartnerSchema), ...problems(400, 401) },
      detail: {
        operationId: 'listPartners',
        summary: 'List the partners of the organization, archived ones included',
        description: 'Every role. Newest first, paged.',
      },
    })
    .post(
      '',
      async ({ actor, body, set }) => {
        set.status = 201
        return partnerView(await create.execute(actor, body))
      },
      {
        auth: true,
        body: CreatePartnerBody,
        response: { 201: PartnerSchema, ...problems(400, 401, 403, 413, 415) },
        detail: { operationId: 'createPartner', summary: 'Add a partner', description: 'org_admin.' },
      },
    )
    .put('/:id', async ({ actor, params, body }) => partnerView(await update.execute(actor, params.id, body)), {
      auth: true,
      params: IdParams,
      body: UpdatePartnerBody,
      response: { 200: PartnerSchema, ...problems(400, 401, 403, 404, 409, 413, 415) },
      detail: {
        operationId: 'updatePartner',
        summary: 'Update a partner',
        description: "org_admin; a partner_admin its own partner's details, not `isDefault` nor `isArchived`.",
      },
    })
}
