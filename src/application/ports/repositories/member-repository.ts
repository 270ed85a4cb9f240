import type { Role } from '../../../domain/auth/roles'
import type { Member } from '../../../domain/members/member'
import type { Page, PageRequest } from '../../../domain/shared/page'

export interface MemberRepository {
  insert(member: Member): Promise<void>
  update(member: Member): Promise<void>
  findById(organizationId: string, id: string): Promise<Member | undefined>
  /**
   * The member, only while the session `sessionId` (its refresh-token family) has a token not revoked.
   * Every authenticated request makes this lookup: one statement, kept prepared.
   */
  findInSession(organizationId: string, id: string, sessionId: string): Promise<Member | undefined>
  /** The members with this (normalized) email, across organizations: login's lookup. */
  findAllByEmail(email: string): Promise<Member[]>
  findByEmail(organizationId: string, email: string): Promise<Member | undefined>
  /** Newest first, `id` as tie-break; `partnerId` narrows to one partner's members. */
  list(organizationId: string, filter: { partnerId?: string }, page: PageRequest): Promise<Page<Member>>
  /** Confirmed members only: an invitation nobody accepted cannot run the organization. */
  countConfirmedByRole(organizationId: string, role: Role): Promise<number>
}
