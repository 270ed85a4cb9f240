import type { AuditEventRepository } from '../../../application/ports/repositories/audit-event-repository'
import type { AuditEvent, AuditFilter } from '../../../domain/audit/audit-event'
import type { PageRequest } from '../../../domain/shared/page'
import { copy } from './memory-store'
import { MemoryRepository, page, tallyOf } from './memory-repository'

export class MemoryAuditEventRepository extends MemoryRepository implements AuditEventRepository {
  async append(events: readonly AuditEvent[]) {
    this.t.auditEvents.push(...events.map(copy))
  }
  async list(organizationId: string, filter: AuditFilter, request: PageRequest) {
    const matching = this.matching(organizationId, filter)
    return page(
      matching.sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)),
      request,
    )
  }
  async tally(organizationId: string, filter: AuditFilter) {
    return tallyOf(this.matching(organizationId, filter).map((e) => e.at))
  }
  private matching(organizationId: string, filter: AuditFilter) {
    return this.t.auditEvents.filter(
      (e) =>
        e.organizationId === organizationId &&
        (filter.memberId === undefined || e.memberId === filter.memberId) &&
        (filter.recordType === undefined || e.recordType === filter.recordType) &&
        (filter.recordId === undefined || e.recordId === filter.recordId) &&
        (filter.action === undefined || e.action === filter.action) &&
        (filter.since === undefined || e.at >= filter.since) &&
        (filter.until === undefined || e.at < filter.until),
    )
  }
  async purge(organizationId: string, before: Date, limit: number) {
    const expired = new Set(this.t.auditEvents.filter((e) => e.organizationId === organizationId && e.at < before).slice(0, limit))
    this.t.auditEvents = this.t.auditEvents.filter((e) => !expired.has(e))
    return expired.size
  }
}
