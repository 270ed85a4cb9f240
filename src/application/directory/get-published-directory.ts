import { NotFoundError } from '../../domain/errors'
import { SLUG, type Organization } from '../../domain/organizations/organization'
import type { Partner } from '../../domain/partners/partner'
import type { ServiceDetail } from '../../domain/services/service'
import { matches } from '../../domain/shared/fields'
import { PAGE_LIMIT } from '../../domain/shared/page'
import type { Repositories } from '../ports/repositories'
import { withTerms } from '../services/service-terms'

// docs/directory.md: the organization's directory as it publishes it, anonymous, read from its organization, partners,
// services and taxonomy terms only (never a member, a need or a person).

/** What a published directory holds: the organization, its partners (the locations) and its services but the archived ones. */
export interface PublishedDirectory {
  organization: Organization
  /** The partners that give a published service, oldest first. */
  partners: Partner[]
  /** Newest first, each with its terms as its vocabulary reads now. */
  services: ServiceDetail[]
}

/**
 * Anonymous, like GetPublicIntakeForm: the organization a slug names, now or once, when it publishes its directory
 * (`publishDirectory`); any other is 404, as a slug of none.
 */
export class GetPublishedDirectory {
  constructor(private readonly repositories: Repositories) {}

  async execute(organizationSlug: string): Promise<PublishedDirectory> {
    const r = this.repositories
    const organization =
      organizationSlug.length <= SLUG.maxLength && matches(organizationSlug, SLUG.pattern)
        ? await r.organizations.findByAnySlug(organizationSlug)
        : undefined
    if (!organization?.publishDirectory) throw new NotFoundError('Directory')
    const services = await this.unarchivedServices(organization.id)
    const giving = new Set(services.map((s) => s.partnerId))
    const partners = (await r.partners.listAll(organization.id)).filter((p) => giving.has(p.id))
    return { organization, partners, services: await withTerms(r, organization.id, services) }
  }

  /** An organization's directory is small (its partners' services): read whole, a page at a time. */
  private async unarchivedServices(organizationId: string) {
    const limit = PAGE_LIMIT.max
    const services = []
    for (let page = 1; ; page++) {
      const found = await this.repositories.services.list(organizationId, {}, { page, limit })
      services.push(...found.items)
      if (found.items.length < limit || services.length >= found.total) return services
    }
  }
}
