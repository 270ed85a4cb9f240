import type { Invitation } from '../../../domain/members/invitation'

export interface InvitationRepository {
  insert(invitation: Invitation): Promise<void>
  findByDigest(tokenDigest: string): Promise<Invitation | undefined>
  /** Marks it used; false when it already was (a second use of the same link). */
  markUsed(id: string, at: Date): Promise<boolean>
  /**
   * Marks every link of the member not used yet as used: a deactivated member's links die with its access. With
   * `purpose`, only the links of that purpose (a new email change voids the ones asked before it).
   */
  voidUnused(organizationId: string, memberId: string, at: Date, purpose?: Invitation['purpose']): Promise<void>
}
