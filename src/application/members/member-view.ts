import type { Member, MemberView } from '../../domain/members/member'
import type { Partner } from '../../domain/partners/partner'
import type { Repositories } from '../ports/repositories'

/** A member as callers see it: no password hash, the partner's name beside its id, whether it is active. */
export function memberView(member: Member, partners: ReadonlyMap<string, Partner>): MemberView {
  const {
    passwordHash: _hash,
    organizationId: _org,
    createdAt: _created,
    deactivatedAt,
    notifications: _own,
    language: _language,
    ...visible
  } = member
  const partnerName = member.partnerId ? partners.get(member.partnerId)?.name : undefined
  return { ...visible, ...(partnerName ? { partnerName } : {}), active: deactivatedAt === undefined }
}

export async function partnersById(r: Repositories, organizationId: string): Promise<Map<string, Partner>> {
  return new Map((await r.partners.listAll(organizationId)).map((p) => [p.id, p]))
}
