import { Elysia, t } from 'elysia'
import type { UseCases } from '../../application/use-cases'
import type { AuthenticationPlugin } from './authentication'
import { IdParams, PagedList, PageQuery, problems } from './common.schemas'
import { pagedResponse } from './paging'
import { CreateSavedViewBody, SavedViewSchema, savedViewView, UpdateSavedViewBody } from './saved-views.schemas'

const WHO = 'Every role; only the caller’s own views, which no one else sees.'

// docs/api/access.md "Saved views"
export function savedViewsRoutes(useCases: UseCases['members'], authentication: AuthenticationPlugin) {
  const { listViews, createView, updateView, deleteView } = useCases

  return new Elysia({ name: 'saved-views', prefix: '/api/profile/views', detail: { tags: ['Members'] } })
    .use(authentication)
    .get(
      '',
      ({ actor, query, request, set }) => pagedResponse({ query, request, set }, (page) => listViews.execute(actor, page), savedViewView),
      {
        auth: true,
        query: t.Object(PageQuery, { additionalProperties: false }),
        response: { 200: PagedList(SavedViewSchema), ...problems(400, 401) },
        detail: {
          operationId: 'listSavedViews',
          summary: 'The caller’s saved views of the inbox, oldest first',
          description: `${WHO} Paged; a member keeps at most 50, so \`limit=50\` reads them all.`,
        },
      },
    )
    .post(
      '',
      async ({ actor, body, set }) => {
        set.status = 201
        return savedViewView(await createView.execute(actor, body))
      },
      {
        auth: true,
        body: CreateSavedViewBody,
        response: { 201: SavedViewSchema, ...problems(400, 401, 409, 413, 415) },
        detail: {
          operationId: 'createSavedView',
          summary: 'Save the inbox’s filters under a name',
          description: `${WHO} A name the caller has given another view, or a 51st view, is 409.`,
        },
      },
    )
    .put('/:id', async ({ actor, params, body }) => savedViewView(await updateView.execute(actor, params.id, body)), {
      auth: true,
      params: IdParams,
      body: UpdateSavedViewBody,
      response: { 200: SavedViewSchema, ...problems(400, 401, 404, 409, 413, 415) },
      detail: {
        operationId: 'updateSavedView',
        summary: 'Rename a saved view, or replace its filters',
        description: `${WHO} \`filters\` replaces the old ones whole; a name another of the caller's views has is 409. Another member's view is 404.`,
      },
    })
    .delete(
      '/:id',
      async ({ actor, params, set }) => {
        await deleteView.execute(actor, params.id)
        set.status = 204
      },
      {
        auth: true,
        params: IdParams,
        response: { 204: t.Void(), ...problems(400, 401, 404) },
        detail: { operationId: 'deleteSavedView', summary: 'Delete a saved view', description: `${WHO} Another member's view is 404.` },
      },
    )
}
