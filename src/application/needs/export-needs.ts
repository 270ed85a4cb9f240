import type { Actor } from '../../domain/auth/actor'
import type { Need } from '../../domain/needs/need'
import { mayReadPersonName, redactNeed } from '../../domain/needs/redaction'
import { authorize } from '../auth/authorize'
import type { AuditTrail } from '../audit/audit-trail'
import { keysetBatches } from '../keyset-batches'
import type { Clock } from '../ports/clock'
import type { Repositories } from '../ports/repositories'
import { scopedNeedFilter, type NeedListFilter } from './list-needs'

/** A need as its export has it: beside each id, the name a reader knows it by, when there is one the caller may read. */
export interface ExportedNeed extends Need {
  partnerName?: string
  assigneeName?: string
  constituentName?: string
}

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
  async execute(actor: Actor, filter: NeedListFilter): Promise<AsyncIterable<ExportedNeed[]>> {
    authorize(actor, 'needs:read')
    authorize(actor, 'records:export')
    const scoped = scopedNeedFilter(actor, filter, this.clock.now())
    const audit = this.audit
    const read = this.repositories
    return (async function* () {
      if (!scoped) return
      const names = new NeedNames(read, actor)
      for await (const batch of keysetBatches((after, limit) => read.needs.listAfter(actor.organizationId, scoped, after, limit))) {
        const shown = batch.map((need) => redactNeed(actor, need))
        // customFields may hold a constituent's contact keys: recorded before the batch leaves the service.
        await audit.needsRead(actor, shown)
        yield await names.of(shown)
      }
    })()
  }
}

/**
 * The names beside a batch's ids. An organization's partners and members are few: read once (partners) or as
 * first met (members, kept for the batches after); the people on file by id, a batch's at once.
 */
class NeedNames {
  private partners: Map<string, string> | undefined
  private readonly members = new Map<string, string | undefined>()

  constructor(
    private readonly repositories: Repositories,
    private readonly actor: Actor,
  ) {}

  async of(needs: Need[]): Promise<ExportedNeed[]> {
    const { organizationId } = this.actor
    this.partners ??= new Map((await this.repositories.partners.listAll(organizationId)).map((p) => [p.id, p.name]))
    const unmet = [...new Set(needs.flatMap((n) => (n.assignedTo && !this.members.has(n.assignedTo) ? [n.assignedTo] : [])))]
    const found = await Promise.all(unmet.map((id) => this.repositories.members.findById(organizationId, id)))
    for (const [i, member] of found.entries()) this.members.set(unmet[i]!, member && (member.fullName ?? member.email))
    const named = needs.filter((n) => n.constituentId && mayReadPersonName(this.actor, n)).map((n) => n.constituentId!)
    const people = named.length > 0 ? await this.repositories.constituents.findByIds(organizationId, [...new Set(named)]) : []
    const personName = new Map(people.map((c) => [c.id, [c.firstName, c.lastName].filter(Boolean).join(' ')]))
    return needs.map((need) => {
      const partnerName = this.partners!.get(need.partnerId)
      const assigneeName = need.assignedTo ? this.members.get(need.assignedTo) : undefined
      const constituentName = need.constituentId && mayReadPersonName(this.actor, need) ? personName.get(need.constituentId) : undefined
      return {
        ...need,
        ...(partnerName ? { partnerName } : {}),
        ...(assigneeName ? { assigneeName } : {}),
        ...(constituentName ? { constituentName } : {}),
      }
    })
  }
}
