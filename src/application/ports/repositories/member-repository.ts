import type { Role } from '../../../domain/auth/roles'
import type { Member } from '../../../domain/members/member'
import type { Page, PageRequest } from '../../../domain/shared/page'

export interface MemberFilter {
  partnerId?: string
  /** true: members not deactivated; false: deactivated ones. */
  active?: boolean
}

export interface MemberRepository {
  insert(member: Member): Promise<void>
  update(member: Member): Promise<void>
  /** Sets only `lastLoginAt`: a login must not write back a row another request may be changing. */
  recordLogin(organizationId: string, id: string, at: Date): Promise<void>
  findById(organizationId: string, id: string): Promise<Member | undefined>
  /**
   * The member, only while the session `sessionId` (its refresh-token family) has a token not revoked.
   * Every authenticated request makes this lookup: one statement, kept prepared.
   */
  findInSession(organizationId: string, id: string, sessionId: string): Promise<Member | undefined>
  /** The members with this (normalized) email, across organizations: login's lookup. */
  findAllByEmail(email: string): Promise<Member[]>
  findByEmail(organizationId: string, email: string): Promise<Member | undefined>
  /** Newest first, `id` as tie-break; `partnerId` narrows to one partner's members, `active` to the active or deactivated ones. */
  list(organizationId: string, filter: MemberFilter, page: PageRequest): Promise<Page<Member>>
  /**
   * Every member of the organization not deactivated, newest first (`list`'s order): who may hear of a new
   * need. An organization's members are few, so they come in one statement, without a page or a total.
   */
  listActive(organizationId: string): Promise<Member[]>
  /** Members who may sign in only: an invitation nobody accepted, or a deactivated member, cannot run the organization. */
  countSigningInByRole(organizationId: string, role: Role): Promise<number>
}
