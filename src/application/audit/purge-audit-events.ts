import { DEFAULT_AUDIT_RETENTION_DAYS, retentionStart } from '../../domain/audit/audit-event'
import type { Clock } from '../ports/clock'
import type { Repositories } from '../ports/repositories'
import type { UnitOfWork } from '../ports/unit-of-work'

/** Events deleted per transaction: the writer is never held long, however much has expired. */
const BATCH = 1000

/**
 * The only deletion of audit events (docs/audit.md): each organization's events older than its retention,
 * run by the worker. Answers how many went.
 */
export class PurgeAuditEvents {
  constructor(
    private readonly repositories: Repositories,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<number> {
    const now = this.clock.now()
    let purged = 0
    for (const { organizationId, auditRetentionDays } of await this.repositories.organizations.auditRetentions()) {
      const before = retentionStart(now, auditRetentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS)
      for (let deleted = BATCH; deleted === BATCH; purged += deleted) {
        deleted = await this.unitOfWork.run((r) => r.auditEvents.purge(organizationId, before, BATCH))
      }
    }
    return purged
  }
}
