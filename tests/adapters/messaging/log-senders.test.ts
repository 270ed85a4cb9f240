import { describe, expect, test } from 'bun:test'
import { LogEmailSender } from '../../../src/adapters/messaging/log-email-sender'
import { LogSmsSender } from '../../../src/adapters/messaging/log-sms-sender'
import { PinoLogger } from '../../../src/adapters/system/pino-logger'
import type { EmailMessage } from '../../../src/domain/messaging/email'

// docs/observability.md "Logs", docs/privacy.md: the log fallbacks (EMAIL_FALLBACK=log, SMS_PROVIDER=log) send
// nothing and write a trace of what they were given: an id, the kind of mail, a length. Erasure cannot reach
// a log, so no address, number, subject, text or token is in it.

/** The service's own logger, its lines kept as an operator would read them. */
function capturedLog() {
  const lines: string[] = []
  const logger = new PinoLogger('debug', { write: (line: string) => void lines.push(line.trimEnd()) })
  return { logger, lines, fields: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) }
}

/** What the pino line has whatever is logged. */
const LINE_KEYS = ['level', 'time', 'message']

const TOKEN = 'q9Zr3mJ0_live-invitation-token-XYZ'
const invitation: EmailMessage = {
  template: 'invitation',
  to: 'ana.lopez@example.org',
  // A subject may name a person, or carry a link too.
  subject: `Ana Lopez, join Harbor: https://intake.example.org/accept-invite?token=${TOKEN}`,
  text: `Hello Ana Lopez,\n\nChoose your password here within 7 days: https://intake.example.org/accept-invite?token=${TOKEN}`,
}

describe('EMAIL_FALLBACK=log', () => {
  test('writes the outbox id, the organization, the kind of mail and its length: no address, subject, text or token', async () => {
    const log = capturedLog()
    const mail = { outboxId: '0190a7e2-0000-7000-8000-000000000001', organizationId: '6f1c2d3e-4b5a-4978-8695-a4b3c2d1e0f9' }
    expect(await new LogEmailSender(log.logger).send(mail, invitation)).toEqual({})

    const written = log.lines.join('\n')
    for (const personal of [invitation.to, 'ana.lopez', 'Ana', 'Lopez', TOKEN, 'token=', 'accept-invite', 'Harbor', 'Choose your password'])
      expect(written).not.toContain(personal)
    expect(log.fields()).toEqual([
      {
        level: 'info',
        time: expect.any(String),
        message: 'email not sent: no email provider configured (EMAIL_FALLBACK=log)',
        ...mail,
        template: 'invitation',
        length: invitation.text.length,
      },
    ])
  })
})

describe('SMS_PROVIDER=log', () => {
  const sms = {
    organizationId: 'org-1',
    from: '+15035550100',
    to: '+15035550199',
    body: `Ana, your request REQ-1001 is in. https://intake.example.org/x?token=${TOKEN}`,
  }

  test('writes the id the text is kept under and its length: no number, words or token', async () => {
    const log = capturedLog()
    const { providerMessageId } = await new LogSmsSender(log.logger).send(sms)

    const written = log.lines.join('\n')
    for (const personal of [sms.from, sms.to, '5035550199', 'Ana', 'REQ-1001', TOKEN, 'token=']) expect(written).not.toContain(personal)
    const [line] = log.fields()
    expect(Object.keys(line!).filter((key) => !LINE_KEYS.includes(key))).toEqual(['providerMessageId', 'length'])
    expect(line).toMatchObject({ message: 'sms not sent: SMS_PROVIDER=log', providerMessageId, length: sms.body.length })
    expect(providerMessageId).toMatch(/^LOG[0-9a-f]{32}$/)
  })
})
