import { changedFields } from '../../domain/audit/audit-event'
import { phoneCountryOf } from '../organizations/phone-country'
import type { Actor } from '../../domain/auth/actor'
import type { Constituent } from '../../domain/constituents/constituent'
import { applyContactChanges, type ContactChanges } from '../../domain/constituents/contact'
import { ConflictError, InvalidError, NotFoundError } from '../../domain/errors'
import type { Clock } from '../ports/clock'
import type { Repositories } from '../ports/repositories'
import type { DuplicateDetection } from './duplicate-detection'
import type { WebhookEvents } from '../webhooks/webhook-events'
import type { AuditTrail } from '../audit/audit-trail'

export interface MergeOptions {
  mergeHouseholds?: boolean
  fieldOverrides?: ContactChanges
}

/**
 * Merges `sourceId` into `targetId` inside the caller's transaction (docs/constituents.md): the source's needs move
 * to the target, `fieldOverrides` apply to the target, with `mergeHouseholds` the source household's other
 * members join the target's household, open matches naming the source now name the target, and the source
 * is removed, with its household when nothing uses it any more.
 */
export class ConstituentMerger {
  constructor(
    private readonly clock: Clock,
    private readonly detection: DuplicateDetection,
    private readonly events: WebhookEvents,
    private readonly audit: AuditTrail,
  ) {}

  async merge(r: Repositories, actor: Actor, sourceId: string, targetId: string, options: MergeOptions): Promise<Constituent> {
    if (sourceId === targetId) throw InvalidError.field('/sourceConstituentId', 'must differ from targetConstituentId')
    const organizationId = actor.organizationId
    const source = await r.constituents.findById(organizationId, sourceId)
    const target = await r.constituents.findById(organizationId, targetId)
    if (!source || !target) throw new NotFoundError('Constituent')
    if (source.erasedAt || target.erasedAt) throw new ConflictError('An erased constituent cannot be merged')

    const { details, errors, matchedFieldsChanged } = applyContactChanges(
      target,
      options.fieldOverrides ?? {},
      await phoneCountryOf(r, organizationId),
      '/fieldOverrides',
    )
    if (errors.length > 0) throw new InvalidError('fieldOverrides has invalid fields', errors)
    const now = this.clock.now()
    const merged: Constituent = {
      ...details,
      id: target.id,
      organizationId,
      householdId: target.householdId,
      createdAt: target.createdAt,
      updatedAt: now,
    }

    if (options.mergeHouseholds && source.householdId !== target.householdId) {
      for (const member of await r.constituents.listByHousehold(organizationId, source.householdId)) {
        if (member.id === source.id) continue
        await r.constituents.update({ ...member, householdId: target.householdId, updatedAt: now })
        await r.needs.setHouseholdOfConstituent(organizationId, member.id, target.householdId)
      }
    }
    await r.needs.moveConstituent(organizationId, source.id, target.id, target.householdId)
    await this.carryMatches(r, actor, source.id, target.id, now)
    await r.constituents.delete(organizationId, source.id)
    await r.constituents.update(merged)
    // Both sides: the source is gone into the target, whose fields may have changed.
    await this.audit.record(
      r,
      actor,
      { action: 'merge', recordType: 'constituent', recordId: source.id },
      { action: 'merge', recordType: 'constituent', recordId: target.id, fields: changedFields(target, merged) },
    )
    await r.constituents.deleteHouseholdIfUnused(organizationId, source.householdId)
    // docs/api/needs.md "Needs": overrides that change the target's contact fields are a contact change like any other
    if (matchedFieldsChanged) await this.detection.run(r, merged)
    await this.events.emit(r, actor.organizationId, 'constituent.merged', { constituentId: merged.id, mergedConstituentId: sourceId })
    return merged
  }

  /** Open matches between the two are resolved by this merge; other open matches of the source move to the target. */
  private async carryMatches(r: Repositories, actor: Actor, sourceId: string, targetId: string, now: Date): Promise<void> {
    const ofTarget = await r.householdMatches.listInvolving(actor.organizationId, targetId)
    const pairedWithTarget = new Set(ofTarget.flatMap((m) => [m.constituentId, m.candidateConstituentId]))
    for (const match of await r.householdMatches.listInvolving(actor.organizationId, sourceId)) {
      if (match.status !== 'OPEN') continue
      const other = match.constituentId === sourceId ? match.candidateConstituentId : match.constituentId
      if (other === targetId) {
        await r.householdMatches.update({
          ...match,
          status: 'RESOLVED',
          action: 'MERGE_CONSTITUENT',
          resolvedAt: now,
          resolvedBy: actor.memberId,
        })
      } else if (pairedWithTarget.has(other)) {
        await r.householdMatches.delete(actor.organizationId, match.id) // the target already has a match with them
      } else {
        const repointed = match.constituentId === sourceId ? { constituentId: targetId } : { candidateConstituentId: targetId }
        await r.householdMatches.update({ ...match, ...repointed })
        pairedWithTarget.add(other)
      }
    }
  }
}
