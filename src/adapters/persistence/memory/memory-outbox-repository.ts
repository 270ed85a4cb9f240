import type { OutboxRepository } from '../../../application/ports/repositories/outbox-repository'
import type { ClaimedOutboxMessage, OutboxMessage } from '../../../domain/messaging/outbox'
import { copy } from './memory-store'
import { MemoryRepository, page } from './memory-repository'
import { newestFirst, type PageRequest } from '../../../domain/shared/page'

export class MemoryOutboxRepository extends MemoryRepository implements OutboxRepository {
  async enqueue(message: OutboxMessage) {
    this.t.outbox.set(message.id, copy(message))
  }
  async findById(id: string) {
    return copy(this.t.outbox.get(id))
  }
  private isDue(m: OutboxMessage, now: Date) {
    return (m.status === 'pending' && m.nextAttemptAt <= now) || (m.status === 'sending' && m.lockedUntil! <= now)
  }
  async organizationsWithDue(now: Date, limit: number) {
    return [...new Set([...this.t.outbox.values()].filter((m) => this.isDue(m, now)).map((m) => m.organizationId))].sort().slice(0, limit)
  }
  async countInFlight(organizationId: string, now: Date) {
    return [...this.t.outbox.values()].filter((m) => m.organizationId === organizationId && m.status === 'sending' && m.lockedUntil! > now)
      .length
  }
  async claimDue(organizationId: string, now: Date, limit: number, lockedUntil: Date) {
    const due = [...this.t.outbox.values()]
      .filter((m) => m.organizationId === organizationId && this.isDue(m, now))
      .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || (a.id < b.id ? -1 : 1))
      .slice(0, Math.max(0, limit))
    return due.map((m) => {
      const claimed: ClaimedOutboxMessage = { ...m, status: 'sending', lockedUntil, inFlightSince: m.inFlightSince ?? now }
      // Copies of the caller's dates: a record is stored as a value (memory-store.ts).
      this.t.outbox.set(m.id, copy(claimed))
      return copy(claimed)
    })
  }
  markSent(id: string, fence: Date, at: Date, providerMessageId: string | undefined, responseStatus?: number) {
    return this.settle(id, fence, { status: 'sent', sentAt: at, providerMessageId, responseStatus })
  }
  reschedule(id: string, fence: Date, attempts: number, nextAttemptAt: Date, error: string, inDoubt = false, responseStatus?: number) {
    return this.settle(id, fence, { status: 'pending', attempts, nextAttemptAt, lastError: error, responseStatus }, inDoubt)
  }
  markFailed(id: string, fence: Date, attempts: number, error: string, responseStatus?: number) {
    return this.settle(id, fence, { status: 'failed', attempts, lastError: error, responseStatus })
  }
  async forgetMessagesTo(organizationId: string, { phone, email }: { phone?: string; email?: string }) {
    const unsentTexts: string[] = []
    for (const m of [...this.t.outbox.values()]) {
      if (m.organizationId !== organizationId) continue
      const p = m.payload
      const toThem =
        (p.channel === 'sms' && p.sms.to === phone) || (p.channel === 'email' && p.email.to.toLowerCase() === email?.toLowerCase())
      if (!toThem) continue
      this.t.outbox.delete(m.id)
      if (p.channel === 'sms' && (m.status === 'pending' || m.status === 'sending')) unsentTexts.push(p.sms.interactionId)
    }
    return unsentTexts
  }
  async listWebhookDeliveries(organizationId: string, endpointId: string, request: PageRequest) {
    const deliveries = [...this.t.outbox.values()]
      .filter((m) => m.organizationId === organizationId && m.payload.channel === 'webhook' && m.payload.webhook.endpointId === endpointId)
      .sort(newestFirst)
    return page(deliveries, request)
  }
  /** Applies an outcome only while the claim `fence` still holds the message. */
  private async settle(id: string, fence: Date, fields: Partial<OutboxMessage>, keepInFlightSince = false) {
    const message = this.t.outbox.get(id)
    if (message?.status !== 'sending' || message.lockedUntil?.getTime() !== fence.getTime()) return false
    const inFlightSince = keepInFlightSince ? message.inFlightSince : undefined
    this.t.outbox.set(id, copy({ ...message, lockedUntil: undefined, ...fields, inFlightSince }))
    return true
  }
  async backlog() {
    const waiting = [...this.t.outbox.values()].filter((m) => m.status === 'pending' || m.status === 'sending')
    const oldest = waiting.map((m) => m.createdAt).sort((a, b) => a.getTime() - b.getTime())[0]
    return {
      pending: waiting.filter((m) => m.status === 'pending').length,
      sending: waiting.filter((m) => m.status === 'sending').length,
      ...(oldest ? { oldestQueuedAt: new Date(oldest) } : {}),
    }
  }
}
