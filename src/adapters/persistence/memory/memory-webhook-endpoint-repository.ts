import type { WebhookEndpointRepository } from '../../../application/ports/repositories/webhook-endpoint-repository'
import type { WebhookEndpoint, WebhookEventType } from '../../../domain/webhooks/webhook'
import { newestFirst, type PageRequest } from '../../../domain/shared/page'
import { copy } from './memory-store'
import { MemoryRepository, inOrganization, page } from './memory-repository'

export class MemoryWebhookEndpointRepository extends MemoryRepository implements WebhookEndpointRepository {
  async insert(endpoint: WebhookEndpoint) {
    this.t.webhookEndpoints.set(endpoint.id, copy(endpoint))
  }
  async update(endpoint: WebhookEndpoint) {
    if (this.t.webhookEndpoints.get(endpoint.id)?.organizationId === endpoint.organizationId)
      this.t.webhookEndpoints.set(endpoint.id, copy(endpoint))
  }
  async delete(organizationId: string, id: string) {
    if (this.t.webhookEndpoints.get(id)?.organizationId !== organizationId) return false
    return this.t.webhookEndpoints.delete(id)
  }
  async findById(organizationId: string, id: string) {
    return inOrganization(this.t.webhookEndpoints.get(id), organizationId)
  }
  private of(organizationId: string) {
    return [...this.t.webhookEndpoints.values()].filter((e) => e.organizationId === organizationId)
  }
  async list(organizationId: string, request: PageRequest) {
    return page(this.of(organizationId).sort(newestFirst), request)
  }
  async count(organizationId: string) {
    return this.of(organizationId).length
  }
  async subscribedTo(organizationId: string, type: WebhookEventType) {
    return this.of(organizationId)
      .filter((e) => e.enabled && e.events.includes(type))
      .sort((a, b) => -newestFirst(a, b))
      .map(copy)
  }
}
