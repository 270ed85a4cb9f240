import { seesPartner, type Actor } from '../../domain/auth/actor'
import type { DuplicateHints } from '../../domain/constituents/duplicate-hints'
import { ForbiddenError, InvalidError } from '../../domain/errors'
import { needFieldErrors, type Need, type NeedFields } from '../../domain/needs/need'
import { redactNeed } from '../../domain/needs/redaction'
import { authorize } from '../auth/authorize'
import { hintsOf, type DuplicateDetection } from '../constituents/duplicate-detection'
import type { NeedMetrics } from '../ports/metrics'
import type { Repositories } from '../ports/repositories'
import { phoneCountryOf } from '../organizations/phone-country'
import { askedBy, type CreateUnit, type IdempotentCreates } from '../idempotency/idempotent-creates'
import { checkNeedReferences } from './need-references'
import { findVisibleNeed } from './find-need'
import type { NeedIntake, NewNeed } from './need-intake'
import { hintReadsOf, type AuditTrail } from '../audit/audit-trail'
import { numbered } from './numbering-need'

export interface CreateNeedInput extends NeedFields {
  partnerId: string
  parentNeedId?: string
  assignedTo?: string
  constituentId?: string
  householdId?: string
}

/** The new need (as the caller may read it) and who its new constituent may be already (as the caller may learn it). */
export type CreatedNeed = Need & Pick<DuplicateHints, 'possibleDuplicates'>

export class CreateNeed {
  constructor(
    private readonly repositories: Repositories,
    private readonly creates: IdempotentCreates,
    private readonly intake: NeedIntake,
    private readonly detection: DuplicateDetection,
    private readonly audit: AuditTrail,
    private readonly metrics: NeedMetrics,
  ) {}

  /** `idempotencyKey`: a retry with it answers the need the first request made (docs/api/conventions.md "Retrying a create"). */
  async execute(actor: Actor, input: CreateNeedInput, idempotencyKey?: string): Promise<CreatedNeed> {
    authorize(actor, 'needs:create')
    if (!seesPartner(actor, input.partnerId)) throw new ForbiddenError('Partner members create needs for their own partner only')
    const country = await phoneCountryOf(this.repositories, actor.organizationId)
    InvalidError.throwIfAny(needFieldErrors(input, country), 'The need has invalid fields')
    return this.creates.once(
      askedBy(actor, 'create_need', idempotencyKey, input),
      (unit) => this.create(actor, input, unit),
      async (needId) => redactNeed(actor, await findVisibleNeed(this.repositories, actor, needId)),
    )
  }

  private async create(actor: Actor, input: CreateNeedInput, unit: CreateUnit): Promise<CreatedNeed> {
    const customFields = input.customFields ?? {}
    const { need: pending, possibleDuplicates } = await unit.run(async (r) => {
      const checking = checkNeedReferences(r, actor.organizationId, input, actor).then(
        ({ partner, householdId }): NewNeed => ({
          ...input,
          id: unit.recordId,
          organizationId: actor.organizationId,
          partner: partner!,
          customFields,
          isConfidential: input.isConfidential ?? false,
          ...(householdId ? { householdId } : {}),
          createdBy: actor.memberId,
        }),
      )
      const recorded = await this.intake.recordWhenChecked(r, actor.organizationId, checking)
      const shown = recorded.person ? await this.detection.candidatesShownTo(r, actor, recorded.person) : []
      const { possibleDuplicates } = hintsOf(shown)
      await this.audit.record(r, actor, ...hintReadsOf(possibleDuplicates ?? []))
      return { need: recorded.need, possibleDuplicates }
    })
    // Its number awaited once committed: nothing in the unit waits for it.
    const need = await numbered(pending)
    this.metrics.opened('staff')
    if (need.resolvedAt) this.metrics.resolved()
    return { ...redactNeed(actor, need), ...(possibleDuplicates ? { possibleDuplicates } : {}) }
  }
}
