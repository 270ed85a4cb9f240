import type { InvitationRepository } from '../../../application/ports/repositories/invitation-repository'
import type { Invitation } from '../../../domain/members/invitation'
import { copy } from './memory-store'
import { MemoryRepository } from './memory-repository'

export class MemoryInvitationRepository extends MemoryRepository implements InvitationRepository {
  async insert(invitation: Invitation) {
    this.t.invitations.set(invitation.id, copy(invitation))
  }
  async findByDigest(tokenDigest: string) {
    return copy([...this.t.invitations.values()].find((i) => i.tokenDigest === tokenDigest))
  }
  async markUsed(id: string, at: Date) {
    const invitation = this.t.invitations.get(id)
    if (!invitation || invitation.usedAt) return false
    invitation.usedAt = at
    return true
  }
  async voidUnused(organizationId: string, memberId: string, at: Date, purpose?: Invitation['purpose']) {
    for (const i of this.t.invitations.values()) {
      const ofPurpose = purpose === undefined || i.purpose === purpose
      if (i.organizationId === organizationId && i.memberId === memberId && !i.usedAt && ofPurpose) i.usedAt = at
    }
  }
}
