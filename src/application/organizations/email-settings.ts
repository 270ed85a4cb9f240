import { changedFields } from '../../domain/audit/audit-event'
import type { Actor } from '../../domain/auth/actor'
import { InvalidError, NotFoundError } from '../../domain/errors'
import {
  apiKeyProblems,
  emailSettingsErrors,
  lastFour,
  type EmailProviderSettings,
  type StoredEmailSettings,
} from '../../domain/messaging/email'
import { keptProviderMessageId } from '../../domain/messaging/sms'
import { authorize } from '../auth/authorize'
import type { OrganizationMailer } from '../messaging/organization-mailer'
import type { EmailHostPolicy } from '../ports/email'
import type { Clock } from '../ports/clock'
import type { Repositories } from '../ports/repositories'
import type { SecretBox } from '../ports/secret-box'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { AuditTrail } from '../audit/audit-trail'

// docs/api/organization.md "Organization settings": the key is sealed at rest and never answered or logged
export interface MaskedEmailSettings {
  provider: StoredEmailSettings['provider']
  fromEmail: string
  fromName?: string
  apiKeyLast4: string
  updatedAt: Date
}

function masked({ provider, fromEmail, fromName, apiKeyLast4, updatedAt }: StoredEmailSettings): MaskedEmailSettings {
  return { provider, fromEmail, ...(fromName ? { fromName } : {}), apiKeyLast4, updatedAt }
}

/** Settings as proposed: without `apiKey`, the key stored for the same provider (docs/api/organization.md "Organization settings"). */
export type ProposedEmailSettings = Omit<EmailProviderSettings, 'apiKey'> & { apiKey?: string }

/**
 * The stored key fills in a key left out, only for the provider it was given for: a key is never handed to
 * another provider than the one its owner typed it for. Otherwise the key stays missing, and the parser says so.
 */
function withStoredKey<T extends ProposedEmailSettings>(input: T, stored: StoredEmailSettings | undefined, secrets: SecretBox): T {
  if (input.apiKey !== undefined || !stored || stored.provider !== input.provider) return input
  return { ...input, apiKey: secrets.open(stored.sealedApiKey) }
}

/** The fields keep their rules, the key fits its provider, and the host it names is one this deployment lets organizations reach. */
async function checkSettings<T extends ProposedEmailSettings & { toEmail?: string }>(
  settings: T,
  purpose: 'save' | 'test',
  hosts: EmailHostPolicy,
): Promise<T & EmailProviderSettings> {
  InvalidError.throwIfAny(emailSettingsErrors(settings, purpose), 'The email settings are not valid')
  // The parser found the key present.
  const complete = { ...settings, apiKey: settings.apiKey ?? '' }
  const errors = apiKeyProblems(complete.provider, complete.apiKey)
  if (errors.length > 0) throw new InvalidError(`The apiKey does not fit the ${complete.provider} provider`, errors)
  await hosts.check(complete)
  return complete
}

export class GetEmailSettings {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor): Promise<MaskedEmailSettings> {
    authorize(actor, 'organization:settings')
    const stored = await this.repositories.emailSettings.find(actor.organizationId)
    if (!stored) throw new NotFoundError('Email settings')
    return masked(stored)
  }
}

export class UpdateEmailSettings {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
    private readonly hosts: EmailHostPolicy,
    private readonly audit: AuditTrail,
    private readonly repositories: Repositories,
  ) {}

  async execute(actor: Actor, proposed: ProposedEmailSettings): Promise<MaskedEmailSettings> {
    authorize(actor, 'organization:settings')
    const kept = await this.repositories.emailSettings.find(actor.organizationId)
    const input = await checkSettings(withStoredKey(proposed, kept, this.secrets), 'save', this.hosts)
    const stored: StoredEmailSettings = {
      organizationId: actor.organizationId,
      provider: input.provider,
      sealedApiKey: this.secrets.seal(input.apiKey),
      apiKeyLast4: lastFour(input.apiKey),
      fromEmail: input.fromEmail,
      ...(input.fromName ? { fromName: input.fromName } : {}),
      updatedAt: this.clock.now(),
    }
    await this.unitOfWork.run(async (r) => {
      const before = await r.emailSettings.find(actor.organizationId)
      await r.emailSettings.save(stored)
      // The sealed key differs on every save (a fresh nonce): the key counts as changed when its last four do or it was new.
      const fields = changedFields(before ?? {}, stored, ['updatedAt', 'sealedApiKey', 'organizationId'])
      await this.audit.record(r, actor, {
        action: before ? 'update' : 'create',
        recordType: 'email_settings',
        recordId: actor.organizationId,
        fields,
      })
    })
    return masked(stored)
  }
}

/** Sends one real message with the proposed settings and stores nothing; a refusal is a 502 with the reason. */
export class SendTestEmail {
  constructor(
    private readonly mailer: OrganizationMailer,
    private readonly hosts: EmailHostPolicy,
    private readonly repositories: Repositories,
    private readonly secrets: SecretBox,
  ) {}

  async execute(actor: Actor, proposed: ProposedEmailSettings & { toEmail: string }): Promise<{ delivered: true; messageId?: string }> {
    authorize(actor, 'organization:settings')
    const kept = await this.repositories.emailSettings.find(actor.organizationId)
    const { toEmail, ...settings } = await checkSettings(withStoredKey(proposed, kept, this.secrets), 'test', this.hosts)
    const sent = await this.mailer.sendWith(settings, {
      template: 'settings_test',
      to: toEmail,
      subject: 'Test message from the intake service',
      text: `This is a test of the ${settings.provider} email settings. If you can read it, they work.`,
    })
    const messageId = keptProviderMessageId(sent.messageId)
    return { delivered: true, ...(messageId ? { messageId } : {}) }
  }
}
