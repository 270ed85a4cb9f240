import { DEFAULT_COUNTRY } from '../../domain/shared/phone'
import type { Repositories } from '../ports/repositories'

/** The country whose national phone numbers the organization's people type (docs/api/needs.md "Phone numbers"). */
export async function phoneCountryOf(repositories: Repositories, organizationId: string): Promise<string> {
  return (await repositories.organizations.findById(organizationId))?.defaultCountry ?? DEFAULT_COUNTRY
}
