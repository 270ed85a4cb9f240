import type { Actor } from '../../domain/auth/actor'
import type { Constituent } from '../../domain/constituents/constituent'
import { NotFoundError } from '../../domain/errors'
import { authorize } from '../auth/authorize'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { ConstituentEraser } from './constituent-eraser'

// docs/privacy.md: an admin erases a person's details at their request; asking again changes nothing.
export class EraseConstituent {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly eraser: ConstituentEraser,
  ) {}

  async execute(actor: Actor, id: string): Promise<Constituent> {
    authorize(actor, 'constituents:erase')
    return this.unitOfWork.run(async (r) => {
      const person = await r.constituents.findById(actor.organizationId, id)
      if (!person) throw new NotFoundError('Constituent')
      return this.eraser.erase(r, actor, person)
    })
  }
}
