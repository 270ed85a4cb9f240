import { and, asc, count, eq } from 'drizzle-orm'
import type { SavedViewRepository } from '../../../application/ports/repositories/saved-view-repository'
import type { SavedView } from '../../../domain/members/saved-view'
import { offsetOf, type PageRequest } from '../../../domain/shared/page'
import { SqlRepository } from './sql-repository'

export class SqlSavedViewRepository extends SqlRepository implements SavedViewRepository {
  private get v() {
    return this.tables.savedViews
  }
  private ofMember(organizationId: string, memberId: string) {
    return and(eq(this.v.organizationId, organizationId), eq(this.v.memberId, memberId))
  }
  async insert(view: SavedView) {
    await this.conflictOnUnique(this.db.insert(this.v).values(view))
  }
  async update({ organizationId, memberId, id, name, filters, updatedAt }: SavedView) {
    await this.conflictOnUnique(
      this.db
        .update(this.v)
        .set({ name, filters, updatedAt })
        .where(and(this.ofMember(organizationId, memberId), eq(this.v.id, id))),
    )
  }
  async delete(organizationId: string, memberId: string, id: string) {
    const rows = await this.db
      .delete(this.v)
      .where(and(this.ofMember(organizationId, memberId), eq(this.v.id, id)))
      .returning({ id: this.v.id })
    return rows.length === 1
  }
  async findById(organizationId: string, memberId: string, id: string) {
    const [row] = await this.db
      .select()
      .from(this.v)
      .where(and(this.ofMember(organizationId, memberId), eq(this.v.id, id)))
    return row
  }
  async list(organizationId: string, memberId: string, page: PageRequest) {
    const rows = await this.db
      .select()
      .from(this.v)
      .where(this.ofMember(organizationId, memberId))
      .orderBy(asc(this.v.createdAt), asc(this.v.id))
      .limit(page.limit)
      .offset(offsetOf(page))
    return { items: rows, total: await this.count(organizationId, memberId) }
  }
  async count(organizationId: string, memberId: string) {
    const [row] = await this.db.select({ n: count() }).from(this.v).where(this.ofMember(organizationId, memberId))
    return row?.n ?? 0
  }
}
