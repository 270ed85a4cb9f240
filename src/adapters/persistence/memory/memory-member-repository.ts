import { UNIQUE_CONFLICTS } from '../../../application/ports/repositories'
import type { MemberFilter, MemberRepository } from '../../../application/ports/repositories/member-repository'
import type { Role } from '../../../domain/auth/roles'
import { ConflictError } from '../../../domain/errors'
import { maySignIn, type Member } from '../../../domain/members/member'
import { newestFirst, type PageRequest } from '../../../domain/shared/page'
import { copy } from './memory-store'
import { MemoryRepository, inOrganization, page } from './memory-repository'

export class MemoryMemberRepository extends MemoryRepository implements MemberRepository {
  async insert(member: Member) {
    this.assertEmailFree(member)
    this.t.members.set(member.id, copy(member))
  }
  private assertEmailFree(member: Member) {
    const taken = [...this.t.members.values()].some(
      (m) => m.organizationId === member.organizationId && m.email === member.email && m.id !== member.id,
    )
    if (taken) throw new ConflictError(UNIQUE_CONFLICTS.memberEmail)
  }
  async list(organizationId: string, filter: MemberFilter, request: PageRequest) {
    const members = [...this.t.members.values()]
      .filter((m) => m.organizationId === organizationId && (!filter.partnerId || m.partnerId === filter.partnerId))
      .filter((m) => filter.active === undefined || filter.active === (m.deactivatedAt === undefined))
      .sort(newestFirst)
    return page(members, request)
  }
  async listActive(organizationId: string) {
    return (await this.list(organizationId, { active: true }, { page: 1, limit: Number.MAX_SAFE_INTEGER })).items
  }
  async countSigningInByRole(organizationId: string, role: Role) {
    return [...this.t.members.values()].filter((m) => m.organizationId === organizationId && m.role === role && maySignIn(m)).length
  }
  async update(member: Member) {
    if (this.t.members.get(member.id)?.organizationId !== member.organizationId) return
    this.assertEmailFree(member)
    this.t.members.set(member.id, copy(member))
  }
  async recordLogin(organizationId: string, id: string, at: Date) {
    const member = inOrganization(this.t.members.get(id), organizationId)
    if (member) this.t.members.set(id, { ...member, lastLoginAt: at })
  }
  async findById(organizationId: string, id: string) {
    return inOrganization(this.t.members.get(id), organizationId)
  }
  async findInSession(organizationId: string, id: string, sessionId: string) {
    const live = [...this.t.refreshTokens.values()].some((t) => t.familyId === sessionId && t.memberId === id && !t.revokedAt)
    return live ? inOrganization(this.t.members.get(id), organizationId) : undefined
  }
  async findAllByEmail(email: string) {
    return [...this.t.members.values()].filter((m) => m.email === email).map(copy)
  }
  async findByEmail(organizationId: string, email: string) {
    return copy([...this.t.members.values()].find((m) => m.organizationId === organizationId && m.email === email))
  }
}
