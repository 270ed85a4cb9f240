import { NotFoundError } from '../../domain/errors'
import { assertAcceptsIntakeFrom, SLUG } from '../../domain/organizations/organization'
import { matches } from '../../domain/shared/fields'
import type { Repositories } from '../ports/repositories'

/** What the public intake form shows of the organization it is sent to (its name), its slug now, and the sites that may frame it. */
export interface PublicIntakeForm {
  organizationName: string
  /** The slug it has now: the one asked for may be one it left (docs/api/pages.md "Pages"). */
  organizationSlug: string
  formOrigins: string[]
}

/**
 * Anonymous, like SubmitPublicNeed: the organization a public form names by its slug, now or once (docs/api/pages.md
 * "Pages"). A slug that cannot be one is not looked up.
 */
export class GetPublicIntakeForm {
  constructor(private readonly repositories: Repositories) {}

  /** `toPostFrom`: the other site whose page posts the form, if one does (the organization must list it). */
  async execute(organizationSlug: string, toPostFrom?: string): Promise<PublicIntakeForm> {
    const organization =
      organizationSlug.length <= SLUG.maxLength && matches(organizationSlug, SLUG.pattern)
        ? await this.repositories.organizations.findByAnySlug(organizationSlug)
        : undefined
    if (!organization) throw new NotFoundError('Organization')
    assertAcceptsIntakeFrom(organization, toPostFrom)
    return { organizationName: organization.name, organizationSlug: organization.slug, formOrigins: organization.formOrigins ?? [] }
  }
}
