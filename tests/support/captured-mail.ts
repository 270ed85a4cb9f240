import type { FallbackEmailSender, OutboxMail } from '../../src/application/ports/email'
import type { EmailMessage } from '../../src/domain/messaging/email'

/** A mail as the fallback was handed it: whole, with its organization and outbox id. */
export type FallbackEmail = EmailMessage & OutboxMail

/**
 * The email fallback as tests see it: keeps each mail whole, where a test reads its link, then hands it on to
 * the sender it stands before (the log fallback, which writes only a trace of it). No test reads a mail from
 * the log: the log holds none.
 */
export class CapturedMail implements FallbackEmailSender {
  /** Every mail, oldest first. */
  readonly mails: FallbackEmail[] = []

  constructor(private readonly next: FallbackEmailSender) {}

  send(mail: OutboxMail, message: EmailMessage) {
    this.mails.push({ ...mail, ...message })
    return this.next.send(mail, message)
  }

  /** The mails to `to`, oldest first. */
  to(to: string): FallbackEmail[] {
    return this.mails.filter((mail) => mail.to === to)
  }
}
