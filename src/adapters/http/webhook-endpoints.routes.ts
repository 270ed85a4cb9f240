import { Elysia, t } from 'elysia'
import type { UseCases } from '../../application/use-cases'
import type { AuthenticationPlugin } from './authentication'
import { IdParams, PagedList, PageQuery, problems } from './common.schemas'
import { pagedResponse } from './paging'
import {
  CreatedWebhookEndpointSchema,
  CreateWebhookEndpointBody,
  UpdateWebhookEndpointBody,
  WebhookDeliverySchema,
  WebhookEndpointSchema,
  webhookDeliveryView,
  webhookEndpointView,
} from './webhook-endpoints.schemas'

const WHO = 'org_admin.'

export function webhookEndpointsRoutes(useCases: UseCases['webhooks'], authentication: AuthenticationPlugin) {
  const { create, list, get, update, delete: remove, listDeliveries } = useCases

  return new Elysia({ name: 'webhook-endpoints', prefix: '/api/webhook-endpoints', detail: { tags: ['Webhook endpoints'] } })
    .use(authentication)
    .get(
      '',
      ({ actor, query, request, set }) => pagedResponse({ query, request, set }, (page) => list.execute(actor, page), webhookEndpointView),
      {
        auth: true,
        query: t.Object(PageQuery, { additionalProperties: false }),
        response: { 200: PagedList(WebhookEndpointSchema), ...problems(400, 401, 403) },
        detail: {
          operationId: 'listWebhookEndpoints',
          summary: "List the organization's webhook endpoints",
          description: `${WHO} Newest first, paged; secrets are never shown again.`,
        },
      },
    )
    .post(
      '',
      async ({ actor, body, set }) => {
        set.status = 201
        const created = await create.execute(actor, body)
        return { ...webhookEndpointView(created), secret: created.secret }
      },
      {
        auth: true,
        body: CreateWebhookEndpointBody,
        response: { 201: CreatedWebhookEndpointSchema, ...problems(400, 401, 403, 409, 413, 415) },
        detail: {
          operationId: 'createWebhookEndpoint',
          summary: 'Add a webhook endpoint; its signing secret is answered this once',
          description: WHO,
        },
      },
    )
    .get('/:id', async ({ actor, params }) => webhookEndpointView(await get.execute(actor, params.id)), {
      auth: true,
      params: IdParams,
      response: { 200: WebhookEndpointSchema, ...problems(400, 401, 403, 404) },
      detail: { operationId: 'getWebhookEndpoint', summary: 'Read a webhook endpoint (without its secret)', description: WHO },
    })
    .put('/:id', async ({ actor, params, body }) => webhookEndpointView(await update.execute(actor, params.id, body)), {
      auth: true,
      params: IdParams,
      body: UpdateWebhookEndpointBody,
      response: { 200: WebhookEndpointSchema, ...problems(400, 401, 403, 404, 413, 415) },
      detail: {
        operationId: 'updateWebhookEndpoint',
        summary: 'Change a webhook endpoint; `enabled: true` re-enables it',
        description: `${WHO} A partial update.`,
      },
    })
    .delete(
      '/:id',
      async ({ actor, params, set }) => {
        await remove.execute(actor, params.id)
        set.status = 204
      },
      {
        auth: true,
        params: IdParams,
        response: { 204: t.Void(), ...problems(400, 401, 403, 404) },
        detail: {
          operationId: 'deleteWebhookEndpoint',
          summary: 'Remove a webhook endpoint; what still waits for it is not sent',
          description: WHO,
        },
      },
    )
    .get(
      '/:id/deliveries',
      ({ actor, params, query, request, set }) =>
        pagedResponse({ query, request, set }, (page) => listDeliveries.execute(actor, params.id, page), webhookDeliveryView),
      {
        auth: true,
        params: IdParams,
        query: t.Object(PageQuery, { additionalProperties: false }),
        response: { 200: PagedList(WebhookDeliverySchema), ...problems(400, 401, 403, 404) },
        detail: {
          operationId: 'listWebhookDeliveries',
          summary: "List an endpoint's deliveries",
          description: `${WHO} Newest first, paged: status, tries, the endpoint's last HTTP status.`,
        },
      },
    )
}
