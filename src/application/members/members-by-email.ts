import { normalizeEmail, type Member } from '../../domain/members/member'
import type { Repositories } from '../ports/repositories'

/** The members with this email, narrowed to one organization when its slug is given. */
export async function membersByEmail(r: Repositories, email: string, organizationSlug?: string): Promise<Member[]> {
  const members = await r.members.findAllByEmail(normalizeEmail(email))
  if (organizationSlug === undefined) return members
  const organization = await r.organizations.findBySlug(organizationSlug)
  return members.filter((m) => m.organizationId === organization?.id)
}
