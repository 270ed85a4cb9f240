import type { Partner } from '../../domain/partners/partner'
import type { Repositories } from '../ports/repositories'

/** The partners a report shows, by name: every one of the organization's (archived too), or a partner role's own. */
export async function reportPartners(
  repositories: Repositories,
  organizationId: string,
  partnerId: string | undefined,
): Promise<Partner[]> {
  const partners = await repositories.partners.listAll(organizationId)
  return partners.filter((p) => !partnerId || p.id === partnerId).sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
}
