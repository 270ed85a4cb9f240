import { Elysia, t } from 'elysia'
import type { UseCases } from '../../application/use-cases'
import type { AuthenticationPlugin } from './authentication'
import { IdParams, PageQuery, problems } from './common.schemas'
import {
  ConstituentSchema,
  constituentView,
  CreatedConstituentSchema,
  CreateConstituentBody,
  HouseholdMatchSchema,
  MatchesQuery,
  matchView,
  MergeBody,
  ResolveMatchBody,
  SearchQuery,
  UpdateConstituentBody,
} from './constituents.schemas'
import { NeedSchema, needView } from './needs.schemas'
import { pagedResponse } from './paging'

// docs/constituents.md
export function constituentsRoutes(useCases: UseCases['constituents'], authentication: AuthenticationPlugin) {
  const { search, get, create, update, listNeeds, merge, listMatches, resolve } = useCases

  const constituents = new Elysia({ name: 'constituents', prefix: '/api/constituents', detail: { tags: ['Constituents'] } })
    .use(authentication)
    .get(
      '',
      (context) => pagedResponse(context, (page) => search.execute(context.actor, context.query.query, page), constituentView),
      {
        auth: true,
        query: SearchQuery,
        response: { 200: t.Array(ConstituentSchema), ...problems(400, 401, 403) },
        detail: { summary: 'Search constituents by name prefix, phone digits or email; newest first' },
      },
    )
    .post(
      '',
      async ({ actor, body, set }) => {
        set.status = 201
        return constituentView(await create.execute(actor, body))
      },
      {
        auth: true,
        body: CreateConstituentBody,
        response: { 201: CreatedConstituentSchema, ...problems(400, 401, 403, 413) },
        detail: { summary: 'Register a constituent; the answer names who it may be already' },
      },
    )
    .post('/merge', async ({ actor, body }) => constituentView(await merge.execute(actor, body)), {
      auth: true,
      body: MergeBody,
      response: { 200: ConstituentSchema, ...problems(400, 401, 403, 404, 413) },
      detail: { summary: 'Merge the source constituent into the target' },
    })
    .get('/:id', async ({ actor, params }) => constituentView(await get.execute(actor, params.id)), {
      auth: true,
      params: IdParams,
      response: { 200: ConstituentSchema, ...problems(400, 401, 403, 404) },
      detail: { summary: 'Read a constituent; phone, email, address and date of birth as the caller may read them' },
    })
    .put('/:id', async ({ actor, params, body }) => constituentView(await update.execute(actor, params.id, body)), {
      auth: true,
      params: IdParams,
      body: UpdateConstituentBody,
      response: { 200: ConstituentSchema, ...problems(400, 401, 403, 404, 413) },
      detail: { summary: 'Update constituent details (checked for duplicates again)' },
    })
    .get(
      '/:id/needs',
      (context) => pagedResponse(context, (page) => listNeeds.execute(context.actor, context.params.id, page), needView),
      {
        auth: true,
        params: IdParams,
        query: t.Object(PageQuery, { additionalProperties: false }),
        response: { 200: t.Array(NeedSchema), ...problems(400, 401, 403, 404) },
        detail: { summary: "A constituent's needs, newest first; other partners' details are emptied for partner roles" },
      },
    )

  const matches = new Elysia({ name: 'household-matches', prefix: '/api/household-matches', detail: { tags: ['Constituents'] } })
    .use(authentication)
    .get(
      '',
      (context) => pagedResponse(context, (page) => listMatches.execute(context.actor, context.query.status, page), matchView),
      {
        auth: true,
        query: MatchesQuery,
        response: { 200: t.Array(HouseholdMatchSchema), ...problems(400, 401, 403) },
        detail: { summary: "Possible duplicates, newest first, with both people's names and the reasons" },
      },
    )
    .post('/:id/resolve', async ({ actor, params, body }) => matchView(await resolve.execute(actor, params.id, body)), {
      auth: true,
      params: IdParams,
      body: ResolveMatchBody,
      response: { 200: HouseholdMatchSchema, ...problems(400, 401, 403, 404, 409, 413) },
      detail: { summary: 'Merge the constituents, join the household, or dismiss' },
    })

  return new Elysia({ name: 'constituents-and-matches' }).use(constituents).use(matches)
}
