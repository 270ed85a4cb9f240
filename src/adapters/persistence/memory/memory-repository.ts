import { isAfter, offsetOf, type Keyset, type Page, type PageRequest } from '../../../domain/shared/page'
import type { Tally } from '../../../domain/messaging/send-limits'
import { copy, type MemoryStore } from './memory-store'

export function inOrganization<T extends { organizationId: string }>(record: T | undefined, organizationId: string): T | undefined {
  return record && record.organizationId === organizationId ? copy(record) : undefined
}

/** Reads the store's tables at each call, so a committed transaction is seen at once. */
export abstract class MemoryRepository {
  constructor(private readonly store: MemoryStore) {}
  protected get t() {
    return this.store.tables
  }
}

export function page<T>(items: T[], request: PageRequest): Page<T> {
  const start = offsetOf(request)
  return { items: items.slice(start, start + request.limit).map(copy), total: items.length }
}

/** Up to `limit` of `sorted` (in list order) after `after`, copied. */
export function batchAfter<T extends Keyset>(sorted: T[], after: Keyset | undefined, limit: number): T[] {
  return (after ? sorted.filter((item) => isAfter(item, after)) : sorted).slice(0, limit).map(copy)
}

/** How many times there are, and the oldest. */
export function tallyOf(times: Date[]): Tally {
  if (times.length === 0) return { count: 0 }
  return { count: times.length, oldest: new Date(Math.min(...times.map((at) => at.getTime()))) }
}
