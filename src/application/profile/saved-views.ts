import type { Actor } from '../../domain/auth/actor'
import { ConflictError, InvalidError, NotFoundError } from '../../domain/errors'
import { MAX_SAVED_VIEWS, savedViewErrors, type SavedView, type SavedViewFilters } from '../../domain/members/saved-view'
import type { Page, PageRequest } from '../../domain/shared/page'
import { authorize } from '../auth/authorize'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { Repositories } from '../ports/repositories'
import type { UnitOfWork } from '../ports/unit-of-work'

// docs/api/access.md "Saved views": the caller's own, found by organization and member, so no one sees another's.
export type SavedViewFields = Pick<SavedView, 'name' | 'filters'>

export class ListSavedViews {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor, page: PageRequest): Promise<Page<SavedView>> {
    authorize(actor, 'profile:read')
    return this.repositories.savedViews.list(actor.organizationId, actor.memberId, page)
  }
}

export class CreateSavedView {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async execute(actor: Actor, input: SavedViewFields): Promise<SavedView> {
    authorize(actor, 'profile:update')
    InvalidError.throwIfAny(savedViewErrors(input, 'create'), 'The saved view has invalid fields')
    const now = this.clock.now()
    const view: SavedView = {
      // In time order: views made in the same millisecond still list in the order they were made.
      id: this.ids.nextInTimeOrder(),
      organizationId: actor.organizationId,
      memberId: actor.memberId,
      name: input.name.trim(),
      filters: filtersOf(input.filters),
      createdAt: now,
      updatedAt: now,
    }
    await this.unitOfWork.run(async (r) => {
      await r.organizations.lockForUpdate(actor.organizationId) // the count below holds against concurrent creations
      if ((await r.savedViews.count(actor.organizationId, actor.memberId)) >= MAX_SAVED_VIEWS) {
        throw new ConflictError(`A member keeps at most ${MAX_SAVED_VIEWS} saved views: delete one first`)
      }
      await r.savedViews.insert(view)
    })
    return view
  }
}

/** A partial update: a new name, new filters (replacing the old ones whole), or both. */
export class UpdateSavedView {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, id: string, input: Partial<SavedViewFields>): Promise<SavedView> {
    authorize(actor, 'profile:update')
    InvalidError.throwIfAny(savedViewErrors(input, 'update'), 'The saved view has invalid fields')
    return this.unitOfWork.run(async (r) => {
      const before = await r.savedViews.findById(actor.organizationId, actor.memberId, id)
      if (!before) throw new NotFoundError('Saved view')
      const after: SavedView = {
        ...before,
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        ...(input.filters !== undefined ? { filters: filtersOf(input.filters) } : {}),
      }
      if (after.name === before.name && JSON.stringify(after.filters) === JSON.stringify(before.filters)) return before
      after.updatedAt = this.clock.now()
      await r.savedViews.update(after)
      return after
    })
  }
}

export class DeleteSavedView {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  async execute(actor: Actor, id: string): Promise<void> {
    authorize(actor, 'profile:update')
    await this.unitOfWork.run(async (r) => {
      if (!(await r.savedViews.delete(actor.organizationId, actor.memberId, id))) throw new NotFoundError('Saved view')
    })
  }
}

/** The filters as checked, without keys given as undefined: what is stored is what is answered. */
function filtersOf(filters: SavedViewFilters): SavedViewFilters {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined))
}
