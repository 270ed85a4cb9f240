import { UNIQUE_CONFLICTS } from '../../../application/ports/repositories'
import type { SavedViewRepository } from '../../../application/ports/repositories/saved-view-repository'
import { ConflictError } from '../../../domain/errors'
import type { SavedView } from '../../../domain/members/saved-view'
import { newestFirst, type PageRequest } from '../../../domain/shared/page'
import { copy } from './memory-store'
import { MemoryRepository, page } from './memory-repository'

export class MemorySavedViewRepository extends MemoryRepository implements SavedViewRepository {
  private of(organizationId: string, memberId: string) {
    return [...this.t.savedViews.values()].filter((v) => v.organizationId === organizationId && v.memberId === memberId)
  }
  private assertNameFree(view: SavedView) {
    if (this.of(view.organizationId, view.memberId).some((v) => v.name === view.name && v.id !== view.id)) {
      throw new ConflictError(UNIQUE_CONFLICTS.savedViewName)
    }
  }
  async insert(view: SavedView) {
    this.assertNameFree(view)
    this.t.savedViews.set(view.id, copy(view))
  }
  async update(view: SavedView) {
    const stored = this.t.savedViews.get(view.id)
    if (stored?.organizationId !== view.organizationId || stored.memberId !== view.memberId) return
    this.assertNameFree(view)
    this.t.savedViews.set(view.id, copy({ ...stored, name: view.name, filters: view.filters, updatedAt: view.updatedAt }))
  }
  async delete(organizationId: string, memberId: string, id: string) {
    if (!(await this.findById(organizationId, memberId, id))) return false
    return this.t.savedViews.delete(id)
  }
  async findById(organizationId: string, memberId: string, id: string) {
    const view = this.t.savedViews.get(id)
    return view && view.organizationId === organizationId && view.memberId === memberId ? copy(view) : undefined
  }
  async list(organizationId: string, memberId: string, request: PageRequest) {
    return page(
      this.of(organizationId, memberId).sort((a, b) => -newestFirst(a, b)),
      request,
    )
  }
  async count(organizationId: string, memberId: string) {
    return this.of(organizationId, memberId).length
  }
}
