import type { LiveEventRepository } from '../../../application/ports/repositories/live-event-repository'
import type { LiveEvent, LiveEventType } from '../../../domain/webhooks/live-event'
import type { WebhookEventData } from '../../../domain/webhooks/webhook'
import { copy } from './memory-store'
import { MemoryRepository } from './memory-repository'

export class MemoryLiveEventRepository extends MemoryRepository implements LiveEventRepository {
  async append(organizationId: string, type: LiveEventType, data: readonly WebhookEventData[], at: Date) {
    for (const item of data) {
      this.t.liveEventsNumbered += 1
      this.t.liveEvents.push({ id: this.t.liveEventsNumbered, organizationId, type, data: { ...item }, createdAt: at })
    }
  }
  async after(afterId: number, limit: number) {
    return this.t.liveEvents
      .filter((e) => e.id > afterId)
      .slice(0, limit)
      .map(copy)
  }
  async byIds(ids: readonly number[]) {
    return ids.flatMap((id) => this.t.liveEvents.filter((e) => e.id === id)).map(copy)
  }
  async replay(organizationId: string, afterId: number, limit: number) {
    return this.t.liveEvents
      .filter((e) => e.organizationId === organizationId && e.id > afterId)
      .slice(0, limit)
      .map(copy)
  }
  async bounds() {
    const events: LiveEvent[] = this.t.liveEvents
    const [first, last] = [events[0], events.at(-1)]
    return first && last ? { lowest: first.id, highest: last.id } : undefined
  }
  async purge(before: Date, limit: number) {
    const newest = this.t.liveEvents.at(-1)
    const expired = new Set(this.t.liveEvents.filter((e) => e !== newest && e.createdAt < before).slice(0, limit))
    this.t.liveEvents = this.t.liveEvents.filter((e) => !expired.has(e))
    return expired.size
  }
}
