import { seesPartner, type Actor } from '../../domain/auth/actor'
import { ForbiddenError, InvalidError } from '../../domain/errors'
import { needFieldErrors, type Need, type NeedFields } from '../../domain/needs/need'
import { redactNeed } from '../../domain/needs/redaction'
import { authorize } from '../auth/authorize'
import type { UnitOfWork } from '../ports/unit-of-work'
import { checkNeedReferences } from './need-references'
import type { NeedIntake, RecordedNeed } from './need-intake'

export interface CreateNeedInput extends NeedFields {
  partnerId: string
  parentNeedId?: string
  assignedTo?: string
  constituentId?: string
  householdId?: string
}

/** The new need (as the caller may read it) and who its new constituent may be already. */
export type CreatedNeed = Need & Pick<RecordedNeed, 'possibleDuplicates'>

export class CreateNeed {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly intake: NeedIntake,
  ) {}

  async execute(actor: Actor, input: CreateNeedInput): Promise<CreatedNeed> {
    authorize(actor, 'needs:create')
    if (!seesPartner(actor, input.partnerId)) throw new ForbiddenError('Partner members create needs for their own partner only')
    InvalidError.throwIfAny(needFieldErrors(input), 'The need has invalid fields')
    const customFields = input.customFields ?? {}

    const { need, possibleDuplicates } = await this.unitOfWork.run(async (r) => {
      const { partner, householdId } = await checkNeedReferences(r, actor.organizationId, input, actor)
      return this.intake.record(r, {
        ...input,
        organizationId: actor.organizationId,
        partner: partner!,
        customFields,
        isConfidential: input.isConfidential ?? false,
        ...(householdId ? { householdId } : {}),
        createdBy: actor.memberId,
      })
    })
    return { ...redactNeed(actor, need), ...(possibleDuplicates ? { possibleDuplicates } : {}) }
  }
}
