import { afterEach, describe, expect, test } from 'bun:test'
import { createServer, type AddressInfo } from 'node:net'
import { SMTPServer, type SMTPServerOptions } from 'smtp-server'
import { SmtpEmailSender } from '../../../src/adapters/messaging/smtp-email-sender'
import { SmtpHostPolicy } from '../../../src/adapters/messaging/smtp-host-policy'
import type { EmailProviderSettings } from '../../../src/domain/messaging/email'
import { expectRefusal } from './support'

// The SMTP adapter against a real SMTP server (smtp-server) on 127.0.0.1, plain text, no STARTTLS.

const USER = 'mailer@example.org'
const PASSWORD = 'p@ss:Word-SMTP-9731'
const message = {
  template: 'invitation' as const,
  to: 'someone@example.net',
  subject: 'Your invitation',
  text: 'Follow the link: https://x.test/accept-invite?token=abc',
}

interface Received {
  mailFrom: string | false
  rcptTo: string[]
  user: string | undefined
  raw: string
}

const servers: SMTPServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))))
})

/** A real SMTP server on a free local port; answers the port and what it received. */
async function startSmtp(options: Partial<SMTPServerOptions> = {}) {
  const received: Received[] = []
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: false,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) return callback(null, { user: auth.username })
      // Some servers echo what they were given; the adapter must not pass that on.
      callback(new Error(`Invalid credentials for ${auth.username} / ${auth.password}`))
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        received.push({
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : false,
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          user: session.user,
          raw: Buffer.concat(chunks).toString('utf8'),
        })
        callback()
      })
    },
    ...options,
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const port = (server.server.address() as AddressInfo).port
  return { port, received }
}

/** A message's headers (unfolded, keys lower-cased) and body. */
function parseMessage(raw: string) {
  const [head, ...rest] = raw.split('\r\n\r\n')
  const headers: Record<string, string> = {}
  for (const line of head!.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
  }
  let body = rest.join('\r\n\r\n')
  if (headers['content-transfer-encoding'] === 'quoted-printable') {
    body = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
  }
  return { headers, body: body.replace(/\r\n$/, '') }
}

const smtpKey = (port: number, user = USER, password = PASSWORD) =>
  `smtp://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`

const settingsFor = (apiKey: string): EmailProviderSettings => ({
  provider: 'smtp',
  apiKey,
  fromEmail: 'desk@example.org',
  fromName: 'Help Desk',
})

const sender = new SmtpEmailSender()

const refusingWith = (responseCode: number, text: string) => Object.assign(new Error(text), { responseCode })

describe('SmtpEmailSender', () => {
  test('delivers the message with from, to, subject and text, logging in with the URL-encoded credentials', async () => {
    const smtp = await startSmtp()

    const result = await sender.send(settingsFor(smtpKey(smtp.port)), message)

    expect(smtp.received).toHaveLength(1)
    const [mail] = smtp.received
    expect(mail!.user).toBe(USER)
    expect(mail!.mailFrom).toBe('desk@example.org')
    expect(mail!.rcptTo).toEqual([message.to])
    const parsed = parseMessage(mail!.raw)
    expect(parsed.headers.from).toMatch(/^"?Help Desk"? <desk@example\.org>$/)
    expect(parsed.headers.to).toBe(message.to)
    expect(parsed.headers.subject).toBe(message.subject)
    expect(parsed.headers['content-type']).toStartWith('text/plain')
    expect(parsed.body).toBe(message.text)
    expect(result.messageId).toBeDefined()
    expect(result.messageId).toBe(parsed.headers['message-id'])
  })

  test('sends without logging in when the URL has no credentials', async () => {
    const smtp = await startSmtp({ authOptional: true })
    await sender.send({ provider: 'smtp', apiKey: `smtp://127.0.0.1:${smtp.port}`, fromEmail: 'desk@example.org' }, message)
    expect(smtp.received).toHaveLength(1)
    expect(smtp.received[0]!.user).toBeUndefined()
    expect(parseMessage(smtp.received[0]!.raw).headers.from).toBe('desk@example.org')
  })

  test('wrong credentials are a non-retryable ProviderError without the password', async () => {
    const smtp = await startSmtp()
    const wrong = 'Wr0ng:Pa55-secret!'
    const apiKey = smtpKey(smtp.port, USER, wrong)
    const error = await expectRefusal(sender.send(settingsFor(apiKey), message), {
      retryable: false,
      secrets: [apiKey, wrong, encodeURIComponent(wrong)],
    })
    expect(error.message).toContain('SMTP')
    expect(error.message).toContain('535')
    expect(smtp.received).toHaveLength(0)
  })

  test('a 451 answer to DATA is a retryable ProviderError with the reason', async () => {
    const smtp = await startSmtp({
      onData(stream, _session, callback) {
        stream.on('end', () => callback(refusingWith(451, 'Temporary local problem, try again later')))
        stream.resume()
      },
    })
    const error = await expectRefusal(sender.send(settingsFor(smtpKey(smtp.port)), message), {
      retryable: true,
      secrets: [smtpKey(smtp.port), PASSWORD],
    })
    expect(error.message).toContain('451')
    expect(error.message).toContain('Temporary local problem')
  })

  test('a 550 answer to DATA is a non-retryable ProviderError with the reason', async () => {
    const smtp = await startSmtp({
      onData(stream, _session, callback) {
        stream.on('end', () => callback(refusingWith(550, 'Message rejected as spam')))
        stream.resume()
      },
    })
    const error = await expectRefusal(sender.send(settingsFor(smtpKey(smtp.port)), message), {
      retryable: false,
      secrets: [smtpKey(smtp.port), PASSWORD],
    })
    expect(error.message).toContain('550')
    expect(error.message).toContain('Message rejected as spam')
  })

  test('a 550 refusal of the recipient is not retryable, a 450 one is', async () => {
    const permanent = await startSmtp({ onRcptTo: (_address, _session, callback) => callback(refusingWith(550, 'No such user here')) })
    const refused = await expectRefusal(sender.send(settingsFor(smtpKey(permanent.port)), message), {
      retryable: false,
      secrets: [PASSWORD],
    })
    expect(refused.message).toContain('No such user here')

    const transient = await startSmtp({ onRcptTo: (_address, _session, callback) => callback(refusingWith(450, 'Mailbox busy')) })
    const busy = await expectRefusal(sender.send(settingsFor(smtpKey(transient.port)), message), { retryable: true, secrets: [PASSWORD] })
    expect(busy.message).toContain('Mailbox busy')
  })

  test('no server listening is a retryable ProviderError without the credentials', async () => {
    const port = await freePort()
    const apiKey = smtpKey(port)
    const error = await expectRefusal(sender.send(settingsFor(apiKey), message), {
      retryable: true,
      secrets: [apiKey, PASSWORD, encodeURIComponent(PASSWORD)],
    })
    expect(error.message).toContain('SMTP')
  })

  test('a short user name leaves the words of the reason whole; the password is still removed', async () => {
    const port = await freePort()
    const apiKey = smtpKey(port, 'con', PASSWORD)
    const error = await expectRefusal(sender.send(settingsFor(apiKey), message), { retryable: true, secrets: [apiKey, PASSWORD] })
    expect(error.message).toContain('connect ECONNREFUSED')
  })

  describe('with EMAIL_BLOCK_PRIVATE_HOSTS', () => {
    const guarded = new SmtpEmailSender(new SmtpHostPolicy({ allowedHosts: [], blockPrivate: true }))

    test('refuses a loopback server without connecting: a non-retryable ProviderError that says nothing of the host', async () => {
      const { port, received } = await startSmtp()
      let connected = false
      servers.at(-1)!.server.on('connection', () => (connected = true))
      const error = await expectRefusal(guarded.send(settingsFor(smtpKey(port)), message), { retryable: false, secrets: [PASSWORD] })
      expect(error.message).toBe('SMTP host refused: this deployment does not let organizations reach it')
      expect(connected).toBe(false)
      expect(received).toEqual([])
    })

    test('a host the operator allows by name is reached, private or not', async () => {
      const { port, received } = await startSmtp()
      const allowed = new SmtpEmailSender(new SmtpHostPolicy({ allowedHosts: ['127.0.0.1'], blockPrivate: true }))
      await allowed.send(settingsFor(smtpKey(port)), message)
      expect(received.map((r) => r.rcptTo)).toEqual([[message.to]])
    })
  })
})

/** A port nothing listens on: one the system just handed out and took back. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
