import type { AuditEvent, AuditFilter } from '../../../domain/audit/audit-event'
import type { Tally } from '../../../domain/messaging/send-limits'
import type { Page, PageRequest } from '../../../domain/shared/page'

/**
 * The audit trail is append-only: nothing updates an event, and the only deletion is the retention purge.
 * Events are written in the transaction of what they record, so a rollback takes them back too.
 */
export interface AuditEventRepository {
  /** Appends the events in one statement. */
  append(events: readonly AuditEvent[]): Promise<void>
  /** The organization's events matching `filter`, newest `at` first, `id` as tie-break. */
  list(organizationId: string, filter: AuditFilter, page: PageRequest): Promise<Page<AuditEvent>>
  /** How many of the organization's events match `filter`, and the oldest one's time (send limits). */
  tally(organizationId: string, filter: AuditFilter): Promise<Tally>
  /**
   * Deletes up to `limit` of the organization's events older than `before` (retention), so one transaction
   * never holds the database long; answers how many went.
   */
  purge(organizationId: string, before: Date, limit: number): Promise<number>
}
