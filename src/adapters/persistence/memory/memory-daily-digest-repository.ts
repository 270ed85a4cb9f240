import type { DailyDigestRepository } from '../../../application/ports/repositories/daily-digest-repository'
import { isOpen, isOverdue, type Need } from '../../../domain/needs/need'
import { copy } from './memory-store'
import { MemoryRepository } from './memory-repository'

export class MemoryDailyDigestRepository extends MemoryRepository implements DailyDigestRepository {
  async membersDue(organizationId: string, localDate: string) {
    return [...this.t.members.values()]
      .filter((m) => m.organizationId === organizationId && m.deactivatedAt === undefined)
      .filter((m) => (this.t.dailyDigests.get(m.id)?.lastLocalDate ?? '') < localDate)
      .map((m) => m.id)
  }
  async take(organizationId: string, memberId: string, localDate: string) {
    if (this.t.members.get(memberId)?.organizationId !== organizationId) return false
    const last = this.t.dailyDigests.get(memberId)
    if (last && last.lastLocalDate >= localDate) return false
    this.t.dailyDigests.set(memberId, { organizationId, lastLocalDate: localDate })
    return true
  }
  async overdueAssignedTo(organizationId: string, memberId: string, now: Date, limit: number) {
    return this.needsOf(organizationId)
      .filter((n) => n.assignedTo === memberId && isOverdue(n, now))
      .sort((a, b) => a.dueDate!.getTime() - b.dueDate!.getTime() || a.id.localeCompare(b.id))
      .slice(0, limit)
      .map(copy)
  }
  async unassignedOpen(organizationId: string, partnerId: string | undefined, limit: number) {
    return this.needsOf(organizationId)
      .filter((n) => n.assignedTo === undefined && isOpen(n.status) && (!partnerId || n.partnerId === partnerId))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
      .slice(0, limit)
      .map(copy)
  }
  private needsOf(organizationId: string): Need[] {
    return [...this.t.needs.values()].filter((n) => n.organizationId === organizationId)
  }
}
