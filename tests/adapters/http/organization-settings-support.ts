import { afterAll, beforeAll, expect } from 'bun:test'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { closedPort } from './helpers'

// What the organization-settings-*.test.ts files share: one server a file with two organizations and a member
// of each role, a real SMTP server on 127.0.0.1 for the email provider, and the calls to the settings routes.
// Each file calls `openSettingsServer()` at its top; its tests reach the rest through these exports.
export type Settings = {
  id: string
  name: string
  slug: string
  shortCode?: string
  maxConcurrency?: number
  tcrStatus?: string
  phoneNumber?: string
  auditRetentionDays?: number
  constituentRetentionDays?: number
  needTextRetentionDays?: number
  appOrigins?: string[]
  formOrigins?: string[]
}
export const BASE_URL = 'https://app.example.test'
/**
 * What an organization that never listed an origin nor chose its digest or confirmations answers, and the
 * service's PUBLIC_BASE_URL beside its settings.
 */
export const UNSET = {
  appOrigins: [],
  formOrigins: [],
  digestHour: 8,
  timeZone: 'UTC',
  digestTimeZone: 'UTC',
  confirmRequests: false,
  publishDirectory: false,
  defaultCountry: 'US',
  publicBaseUrl: BASE_URL,
}
export type MaskedEmail = { provider: string; fromEmail: string; fromName?: string; apiKeyLast4: string; updatedAt: string }

export const SETTINGS = '/api/organizations/settings'
export const EMAIL = '/api/organizations/settings/email'
export const EMAIL_TEST = '/api/organizations/settings/email/test'
export const SMTP_USER = 'mailer-user'
export const SMTP_PASSWORD = 'smtp-Pa55word-never-shown'
export const WRONG_PASSWORD = 'wrong-Pa55word-never-shown'
export const SES_SECRET = 'sesSecretKeyNeverShown0123456789'

interface Received {
  from: string
  to: string[]
  user?: string
  headers: string
  body: string
}

/** A local SMTP server: accepts `SMTP_USER` / `SMTP_PASSWORD` (or no login), refuses recipients starting with "blocked". */
async function startSmtpServer() {
  const received: Received[] = []
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) return callback(null, { user: auth.username })
      callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }))
    },
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('blocked')) return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }))
      callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const split = raw.indexOf('\r\n\r\n')
        const headers = raw.slice(0, split)
        let body = raw.slice(split + 4)
        if (/content-transfer-encoding:\s*quoted-printable/i.test(headers)) {
          body = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
        } else if (/content-transfer-encoding:\s*base64/i.test(headers)) {
          body = Buffer.from(body, 'base64').toString('utf8')
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          ...(session.user ? { user: String(session.user) } : {}),
          headers,
          body,
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const port = (server.server.address() as AddressInfo).port
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

export let api: TestServer
export let world: World
export let other: World
export let smtp: Awaited<ReturnType<typeof startSmtpServer>>
export let smtpUrl: string
export let refusedUrl: string
export const tokens: Record<string, string> = {}

/** Before the tests of the file that calls it: both servers and the members; after them, both stopped. */
export function openSettingsServer(): void {
  beforeAll(async () => {
    ;[api, smtp] = await Promise.all([startTestServer({ PUBLIC_BASE_URL: BASE_URL }), startSmtpServer()])
    smtpUrl = `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${smtp.port}`
    refusedUrl = `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${await closedPort()}`
    world = api.world
    other = await world.otherOrganization()
    const partner = await world.partner({ name: 'Pantry' })
    const [admin, staff, partnerAdmin, agent, volunteer, volunteerWithEveryProfile, otherAdmin] = await Promise.all([
      api.tokenFor(world, 'org_admin'),
      api.tokenFor(world, 'staff'),
      api.tokenFor(world, 'partner_admin', { partnerId: partner.id }),
      api.tokenFor(world, 'partner_agent', { partnerId: partner.id }),
      api.tokenFor(world, 'volunteer', { partnerId: partner.id }),
      api.tokenFor(world, 'volunteer', {
        partnerId: partner.id,
        profiles: ['needs_processor', 'intake_staff', 'sms_communicator', 'email_phone_communicator', 'pii_reader', 'duplicate_resolver'],
      }),
      api.tokenFor(other, 'org_admin'),
    ])
    Object.assign(tokens, { admin, staff, partnerAdmin, agent, volunteer, volunteerWithEveryProfile, otherAdmin })
  })
  afterAll(async () => {
    await api.stop()
    await smtp.close()
  })
}

export const NON_ADMINS = ['staff', 'partnerAdmin', 'agent', 'volunteer', 'volunteerWithEveryProfile']
export const getSettings = (token = tokens.admin) => api.call<Settings>('GET', SETTINGS, { token })
export const putSettings = (body: unknown, token = tokens.admin) => api.call<Settings>('PUT', SETTINGS, { token, body })
export const getEmail = (token = tokens.admin) => api.call<MaskedEmail>('GET', EMAIL, { token })
export const putEmail = (body: unknown, token = tokens.admin) => api.call<MaskedEmail>('PUT', EMAIL, { token, body })
export const testEmail = (body: unknown, token = tokens.admin) => api.call('POST', EMAIL_TEST, { token, body })

export async function current(token = tokens.admin): Promise<Settings> {
  const response = await getSettings(token)
  expect(response.status).toBe(200)
  return response.body
}

export const randomSlug = (label = 'org') => `${label}-${crypto.randomUUID().slice(0, 8)}`
export const randomCode = (length = 5) => Array.from({ length }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join('')
export const smtpSettings = (overrides: Record<string, unknown> = {}) => ({
  provider: 'smtp',
  apiKey: smtpUrl,
  fromEmail: 'desk@example.org',
  fromName: 'Intake Desk',
  ...overrides,
})

/** An organization of its own and the token of its only org_admin. */
export async function organizationWithAdmin(): Promise<{ world: World; token: string }> {
  const fresh = await world.otherOrganization()
  const admin = (await fresh.repositories.members.findById(fresh.organizationId, fresh.admin.memberId))!
  const organization = (await fresh.repositories.organizations.findById(fresh.organizationId))!
  return { world: fresh, token: await api.login(admin.email, organization.slug) }
}
