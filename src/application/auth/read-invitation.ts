import type { MailLanguage } from '../../domain/members/notifications'
import { findLinkToken } from '../members/one-time-links'
import type { Clock } from '../ports/clock'
import type { Repositories } from '../ports/repositories'
import type { SecretTokens } from '../ports/secret-tokens'

/** Whom an invitation is for, as its page says before the password is chosen. */
export interface InvitationShown {
  organizationName: string
  email: string
  language?: MailLanguage
}

/**
 * docs/api/pages.md "Pages": the invitation a token names, read without using it up (the link works once, when the
 * password is chosen); undefined for a token that is unknown, used, expired or of a deactivated member. Only the
 * holder of the emailed link learns this: the token is 256 random bits.
 */
export class ReadInvitation {
  constructor(
    private readonly repositories: Repositories,
    private readonly secrets: SecretTokens,
    private readonly clock: Clock,
  ) {}

  async execute(token: string): Promise<InvitationShown | undefined> {
    const found = await findLinkToken(this.repositories, this.secrets, token, undefined, this.clock.now())
    if (!found || found.member.deactivatedAt) return undefined
    const organization = await this.repositories.organizations.findById(found.member.organizationId)
    if (!organization) return undefined
    const { email, language } = found.member
    return { organizationName: organization.name, email, ...(language ? { language } : {}) }
  }
}
