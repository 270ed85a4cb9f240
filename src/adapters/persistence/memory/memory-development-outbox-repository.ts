import type { DevelopmentOutboxRepository } from '../../../application/ports/repositories/development-outbox-repository'
import type { UnsentMessage } from '../../../domain/messaging/development-outbox'
import { newestFirst, type PageRequest } from '../../../domain/shared/page'
import { copy } from './memory-store'
import { MemoryRepository, page } from './memory-repository'

export class MemoryDevelopmentOutboxRepository extends MemoryRepository implements DevelopmentOutboxRepository {
  async insert(message: UnsentMessage) {
    this.t.developmentOutbox.set(message.id, copy(message))
  }
  async list(organizationId: string, request: PageRequest) {
    const kept = [...this.t.developmentOutbox.values()].filter((message) => message.organizationId === organizationId)
    return page(kept.sort(newestFirst), request)
  }
  async forgetMessagesTo(organizationId: string, { phone, email }: { phone?: string; email?: string }) {
    const isTo = (recipient: string) => recipient === phone || (email !== undefined && recipient.toLowerCase() === email.toLowerCase())
    return this.remove((message) => message.organizationId === organizationId && isTo(message.recipient))
  }
  async purge(before: Date, limit: number) {
    return this.remove((message) => message.createdAt <= before, limit)
  }
  private remove(which: (message: UnsentMessage) => boolean, limit = Number.POSITIVE_INFINITY) {
    const gone = [...this.t.developmentOutbox.values()].filter(which).slice(0, limit)
    for (const message of gone) this.t.developmentOutbox.delete(message.id)
    return gone.length
  }
}
