import { changedFields } from '../../domain/audit/audit-event'
import type { Actor } from '../../domain/auth/actor'
import type { ContactChanges } from '../../domain/constituents/contact'
import { statusAfter, type HouseholdMatch, type ResolveAction } from '../../domain/constituents/household-match'
import { ConflictError, InvalidError, NotFoundError } from '../../domain/errors'
import { authorize } from '../auth/authorize'
import type { Clock } from '../ports/clock'
import type { Repositories } from '../ports/repositories'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { ConstituentMerger } from './constituent-merger'
import { withPeople, type MatchForReview } from './list-household-matches'
import type { WebhookEvents } from '../webhooks/webhook-events'
import { readsOf, type AuditTrail } from '../audit/audit-trail'

// docs/constituents.md
export interface ResolveHouseholdMatchInput {
  action: ResolveAction
  targetConstituentId?: string
  fieldOverrides?: ContactChanges
}

export class ResolveHouseholdMatch {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly merger: ConstituentMerger,
    private readonly clock: Clock,
    private readonly events: WebhookEvents,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, id: string, input: ResolveHouseholdMatchInput): Promise<MatchForReview> {
    authorize(actor, 'household-matches:resolve')
    if (input.action !== 'MERGE_CONSTITUENT' && (input.targetConstituentId || input.fieldOverrides)) {
      throw InvalidError.field('/action', 'targetConstituentId and fieldOverrides apply to MERGE_CONSTITUENT only')
    }
    return this.unitOfWork.run(async (r) => {
      const match = await r.householdMatches.findById(actor.organizationId, id)
      if (!match) throw new NotFoundError('Household match')
      if (match.status !== 'OPEN') throw new ConflictError(`This match was already ${match.status.toLowerCase()}`)
      if (input.action === 'MERGE_CONSTITUENT') await this.mergeConstituents(r, actor, match, input)
      if (input.action === 'MERGE_HOUSEHOLD') await this.joinHousehold(r, actor, match)
      const resolved: HouseholdMatch = {
        ...match,
        status: statusAfter(input.action),
        action: input.action,
        resolvedAt: this.clock.now(),
        resolvedBy: actor.memberId,
      }
      await r.householdMatches.update(resolved)
      await this.events.emit(r, actor.organizationId, 'household_match.resolved', { householdMatchId: resolved.id, action: input.action })
      const [answer] = await withPeople(r, actor, [resolved])
      // The answer shows both people: their details are read as well.
      await this.audit.record(
        r,
        actor,
        { action: 'resolve', recordType: 'household_match', recordId: resolved.id, fields: changedFields(match, resolved) },
        ...readsOf([answer!.constituent, answer!.candidate]),
      )
      return answer!
    })
  }

  /** The match's constituent merges into the target: the candidate by default, or either of the pair. */
  private async mergeConstituents(r: Repositories, actor: Actor, match: HouseholdMatch, input: ResolveHouseholdMatchInput) {
    const target = input.targetConstituentId ?? match.candidateConstituentId
    const pair = [match.constituentId, match.candidateConstituentId]
    if (!pair.includes(target)) throw InvalidError.field('/targetConstituentId', "must be one of the match's two constituents")
    const source = target === match.constituentId ? match.candidateConstituentId : match.constituentId
    await this.merger.merge(r, actor, source, target, { ...(input.fieldOverrides ? { fieldOverrides: input.fieldOverrides } : {}) })
  }

  /** The match's constituent joins the candidate's household; its needs follow. */
  private async joinHousehold(r: Repositories, actor: Actor, match: HouseholdMatch) {
    const constituent = await r.constituents.findById(actor.organizationId, match.constituentId)
    const candidate = await r.constituents.findById(actor.organizationId, match.candidateConstituentId)
    if (!constituent || !candidate) throw new NotFoundError('Constituent')
    if (constituent.householdId === candidate.householdId) return
    await r.constituents.update({ ...constituent, householdId: candidate.householdId, updatedAt: this.clock.now() })
    await r.needs.setHouseholdOfConstituent(actor.organizationId, constituent.id, candidate.householdId)
    await r.constituents.deleteHouseholdIfUnused(actor.organizationId, constituent.householdId)
  }
}
