import { LogEmailSender } from '../../src/adapters/messaging/log-email-sender'
import { DispatchOutbox } from '../../src/application/messaging/dispatch-outbox'
import type { EmailSenders } from '../../src/application/messaging/organization-mailer'
import type { EmailSender } from '../../src/application/ports/email'
import type { Logger } from '../../src/application/ports/logger'
import { ProviderError } from '../../src/application/ports/provider-error'
import { EMAIL_PROVIDERS, type EmailMessage, type EmailProvider, type EmailProviderSettings } from '../../src/domain/messaging/email'
import { createContainer, PORTS } from '../../src/main/container'
import { CapturedMail, type FallbackEmail } from '../support/captured-mail'
import { FixedClock } from '../support/fixed-clock'
import { cheapPasswords, createWorld, testConfig, type World } from '../support/world'

export const PUBLIC_BASE_URL = 'https://intake.example.org'

/** A provider that records what it is asked to send; told to, it fails like a real one. */
export class RecordingSender implements EmailSender {
  /** Every attempt, failed ones too, in order. */
  readonly attempts: Array<{ settings: EmailProviderSettings; message: EmailMessage }> = []
  /** The messages it accepted. */
  readonly delivered: Array<{ settings: EmailProviderSettings; message: EmailMessage }> = []
  private failures: Error[] = []

  constructor(readonly provider: EmailProvider) {}

  /** The next `times` attempts throw `error`. */
  failNext(error: Error, times = 1): void {
    for (let i = 0; i < times; i++) this.failures.push(error)
  }

  async send(settings: EmailProviderSettings, message: EmailMessage) {
    this.attempts.push({ settings, message })
    const failure = this.failures.shift()
    if (failure) throw failure
    this.delivered.push({ settings, message })
    return { messageId: `${this.provider}-${this.delivered.length}` }
  }
}

export const retryable = (reason = 'Service unavailable (503)') => new ProviderError('Failed to send email', reason, true)
export const refused = (reason = 'Invalid sender address (422)') => new ProviderError('Failed to send email', reason, false)

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error'
  message: string
  fields: Record<string, unknown>
}

export interface MailWorld extends World {
  senders: Record<EmailProvider, RecordingSender>
  logs: LogEntry[]
  /** The mail of organizations without email settings, whole, as the fallback was handed it (the log holds only its trace). */
  fallbackMail(): FallbackEmail[]
  /** One pass of the outbox worker. */
  dispatch(): Promise<number>
}

/** A logger that keeps what it is told, for tests to read back. */
export function recordingLogger(): { logs: LogEntry[]; logger: Logger } {
  const logs: LogEntry[] = []
  const keep =
    (level: LogEntry['level']) =>
    (message: string, fields: Record<string, unknown> = {}) =>
      logs.push({ level, message, fields })
  return { logs, logger: { debug: keep('debug'), info: keep('info'), warn: keep('warn'), error: keep('error') } }
}

/**
 * The usual in-memory world, with a recording fake behind each email provider, the fallback's mail kept
 * before the log fallback writes its trace, and a logger that keeps what it is told.
 */
export async function createMailWorld(env: Record<string, string> = {}): Promise<MailWorld> {
  const config = testConfig({ PUBLIC_BASE_URL, ...env })
  const clock = new FixedClock()
  const { logs, logger } = recordingLogger()
  const fallback = new CapturedMail(new LogEmailSender(logger))
  const container = createContainer(config, { clock, passwords: cheapPasswords(), logger, fallbackEmail: fallback })
  const senders = Object.fromEntries(EMAIL_PROVIDERS.map((p) => [p, new RecordingSender(p)])) as Record<EmailProvider, RecordingSender>
  container.rebind(PORTS.emailSenders).toConstantValue(senders satisfies EmailSenders)
  const world = await createWorld(config, container, clock)
  return {
    ...world,
    senders,
    logs,
    fallbackMail: () => fallback.mails,
    async dispatch() {
      // What requests left for after their answer (a password reset) first: it is what fills the outbox.
      await container.get(PORTS.deferredWork).settled()
      return container.get(DispatchOutbox).runOnce()
    },
  }
}

/** The invitation token inside an invitation email's link. */
export function tokenIn(message: EmailMessage): string {
  const link = linkIn(message)
  return new URL(link).searchParams.get('token')!
}

export function linkIn(message: EmailMessage): string {
  const found = /https?:\/\/\S+\/accept-invite\?token=\S+/.exec(message.text)
  if (!found) throw new Error(`no invitation link in: ${message.text}`)
  return found[0]
}
