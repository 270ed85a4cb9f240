import type { Actor } from '../../domain/auth/actor'
import type { Need } from '../../domain/needs/need'
import { redactNeed } from '../../domain/needs/redaction'
import { authorize } from '../auth/authorize'
import type { AuditTrail } from '../audit/audit-trail'
import { keysetBatches } from '../keyset-batches'
import type { Clock } from '../ports/clock'
import type { Repositories } from '../ports/repositories'
import { scopedNeedFilter, type NeedListFilter } from './list-needs'

// docs/api/exports-import.md "Exports"
export class ExportNeeds {
  constructor(
    private readonly repositories: Repositories,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
  ) {}

  /**
   * The needs the list would show with `filter`, every one of them, in list order and redacted as the list
   * redacts them, as batches read one at a time while the caller consumes them. Refusals come before any read.
   */
  async execute(actor: Actor, filter: NeedListFilter): Promise<AsyncIterable<Need[]>> {
    authorize(actor, 'needs:read')
    authorize(actor, 'records:export')
    const scoped = scopedNeedFilter(actor, filter, this.clock.now())
    const audit = this.audit
    const read = this.repositories.needs
    return (async function* () {
      if (!scoped) return
      for await (const batch of keysetBatches((after, limit) => read.listAfter(actor.organizationId, scoped, after, limit))) {
        const shown = batch.map((need) => redactNeed(actor, need))
        // customFields may hold a constituent's contact keys: recorded before the batch leaves the service.
        await audit.needsRead(actor, shown)
        yield shown
      }
    })()
  }
}
