import type { Actor } from '../../domain/auth/actor'
import type { Constituent } from '../../domain/constituents/constituent'
import { withoutHiddenContact } from '../../domain/constituents/redaction'
import { authorize } from '../auth/authorize'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { ConstituentMerger, MergeOptions } from './constituent-merger'

// docs/constituents.md
export interface MergeConstituentsInput extends MergeOptions {
  sourceConstituentId: string
  targetConstituentId: string
}

export class MergeConstituents {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly merger: ConstituentMerger,
  ) {}

  async execute(actor: Actor, input: MergeConstituentsInput): Promise<Constituent> {
    authorize(actor, 'constituents:merge')
    const merged = await this.unitOfWork.run((r) =>
      this.merger.merge(r, actor, input.sourceConstituentId, input.targetConstituentId, input),
    )
    return withoutHiddenContact(actor, merged)
  }
}
