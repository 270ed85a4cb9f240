import type { Actor } from '../../domain/auth/actor'
import { ConflictError, InvalidError, NotFoundError } from '../../domain/errors'
import type { Page, PageRequest } from '../../domain/shared/page'
import {
  MAX_WEBHOOK_ENDPOINTS,
  webhookEndpointFieldErrors,
  type WebhookEndpoint,
  type WebhookEndpointFields,
} from '../../domain/webhooks/webhook'
import { authorize } from '../auth/authorize'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { Repositories } from '../ports/repositories'
import type { SecretBox } from '../ports/secret-box'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { WebhookHostPolicy, WebhookSecrets } from '../ports/webhooks'
import type { AuditTrail } from '../audit/audit-trail'

// docs/events.md: the secret is sealed at rest, answered once (on creation), never logged
export type WebhookEndpointView = Omit<WebhookEndpoint, 'sealedSecret' | 'organizationId'>

export function endpointView({ sealedSecret: _sealed, organizationId: _organization, ...view }: WebhookEndpoint): WebhookEndpointView {
  return view
}

export type CreateWebhookEndpointInput = Pick<WebhookEndpointFields, 'url' | 'events'> & Partial<Pick<WebhookEndpointFields, 'enabled'>>

export class CreateWebhookEndpoint {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly box: SecretBox,
    private readonly secrets: WebhookSecrets,
    private readonly hosts: WebhookHostPolicy,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, input: CreateWebhookEndpointInput): Promise<WebhookEndpointView & { secret: string }> {
    authorize(actor, 'webhooks:manage')
    InvalidError.throwIfAny(webhookEndpointFieldErrors(input, 'create'), 'The webhook endpoint has invalid fields')
    await this.hosts.check(input.url)
    const secret = this.secrets.generate()
    const now = this.clock.now()
    const endpoint: WebhookEndpoint = {
      id: this.ids.next(),
      organizationId: actor.organizationId,
      url: input.url,
      events: [...input.events],
      sealedSecret: this.box.seal(secret),
      enabled: input.enabled ?? true,
      consecutiveFailures: 0,
      createdAt: now,
      updatedAt: now,
    }
    await this.unitOfWork.run(async (r) => {
      await r.organizations.lockForUpdate(actor.organizationId) // the count below holds against concurrent creations
      if ((await r.webhookEndpoints.count(actor.organizationId)) >= MAX_WEBHOOK_ENDPOINTS) {
        throw new ConflictError(`An organization has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints`)
      }
      await r.webhookEndpoints.insert(endpoint)
      await this.audit.record(r, actor, { action: 'create', recordType: 'webhook_endpoint', recordId: endpoint.id })
    })
    return { ...endpointView(endpoint), secret }
  }
}

export class GetWebhookEndpoint {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor, id: string): Promise<WebhookEndpointView> {
    authorize(actor, 'webhooks:manage')
    const endpoint = await this.repositories.webhookEndpoints.findById(actor.organizationId, id)
    if (!endpoint) throw new NotFoundError('Webhook endpoint')
    return endpointView(endpoint)
  }
}

export class ListWebhookEndpoints {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor, page: PageRequest): Promise<Page<WebhookEndpointView>> {
    authorize(actor, 'webhooks:manage')
    const found = await this.repositories.webhookEndpoints.list(actor.organizationId, page)
    return { items: found.items.map(endpointView), total: found.total }
  }
}

export type UpdateWebhookEndpointInput = Partial<WebhookEndpointFields>

/** A partial update; `enabled: true` re-enables an endpoint that repeated failure disabled and clears its count. */
export class UpdateWebhookEndpoint {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly hosts: WebhookHostPolicy,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, id: string, input: UpdateWebhookEndpointInput): Promise<WebhookEndpointView> {
    authorize(actor, 'webhooks:manage')
    InvalidError.throwIfAny(webhookEndpointFieldErrors(input, 'update'), 'The webhook endpoint has invalid fields')
    if (input.url !== undefined) await this.hosts.check(input.url)
    return this.unitOfWork.run(async (r) => {
      const before = await r.webhookEndpoints.findById(actor.organizationId, id)
      if (!before) throw new NotFoundError('Webhook endpoint')
      const reenabled = input.enabled === true && !before.enabled
      const after: WebhookEndpoint = {
        ...before,
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(input.events !== undefined ? { events: [...input.events] } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        ...(reenabled ? { consecutiveFailures: 0, disabledAt: undefined } : {}),
        updatedAt: this.clock.now(),
      }
      await r.webhookEndpoints.update(after)
      const fields = (['url', 'events', 'enabled'] as const).filter((field) => input[field] !== undefined)
      await this.audit.record(r, actor, { action: 'update', recordType: 'webhook_endpoint', recordId: id, fields })
      return endpointView(after)
    })
  }
}

/** Deliveries still waiting for it are failed by the worker ("the endpoint was deleted"), never sent. */
export class DeleteWebhookEndpoint {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, id: string): Promise<void> {
    authorize(actor, 'webhooks:manage')
    await this.unitOfWork.run(async (r) => {
      if (!(await r.webhookEndpoints.delete(actor.organizationId, id))) throw new NotFoundError('Webhook endpoint')
      await this.audit.record(r, actor, { action: 'delete', recordType: 'webhook_endpoint', recordId: id })
    })
  }
}
