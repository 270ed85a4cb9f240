import type { EmailMessage, EmailProvider, EmailProviderSettings } from '../../domain/messaging/email'
import type { EmailSender, FallbackEmailSender, OutboxMail } from '../ports/email'
import type { Repositories } from '../ports/repositories'
import type { SecretBox } from '../ports/secret-box'
import type { DevelopmentOutbox } from './development-outbox'

export type EmailSenders = Record<EmailProvider, EmailSender>

/**
 * Sends an organization's mail through its own provider, or the fallback when it has none (docs/api/organization.md "Outgoing mail"),
 * keeping it then in the development outbox.
 */
export class OrganizationMailer {
  constructor(
    private readonly repositories: Repositories,
    private readonly secrets: SecretBox,
    private readonly senders: EmailSenders,
    private readonly fallback: FallbackEmailSender,
    private readonly developmentOutbox: DevelopmentOutbox,
  ) {}

  async send(mail: OutboxMail, message: EmailMessage): Promise<{ messageId?: string }> {
    const stored = await this.repositories.emailSettings.find(mail.organizationId)
    if (!stored) {
      const sent = await this.fallback.send(mail, message)
      await this.developmentOutbox.keepMail(mail, message)
      return sent
    }
    return this.sendWith(
      {
        provider: stored.provider,
        apiKey: this.secrets.open(stored.sealedApiKey),
        fromEmail: stored.fromEmail,
        ...(stored.fromName ? { fromName: stored.fromName } : {}),
      },
      message,
    )
  }

  sendWith(settings: EmailProviderSettings, message: EmailMessage): Promise<{ messageId?: string }> {
    return this.senders[settings.provider].send(settings, message)
  }
}
