import { DEFAULT_AUDIT_RETENTION_DAYS } from '../../../src/domain/audit/audit-event'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createServer, type AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { startTestServer, type TestServer } from '../../support/http'
import { TEST_PASSWORD, type World } from '../../support/world'
import { deliverUntil, expectBadRequest, expectProblem, invitationIn, ISO_MS, loggedEmailsTo, loggedInvitationTo } from './helpers'

// docs/api.md "Errors", docs/api.md "Permissions", docs/api.md; docs/api.md "Organization settings" and
// "Outgoing mail", over real HTTP, with a real SMTP server on 127.0.0.1 for the email provider.
type Settings = {
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
const BASE_URL = 'https://app.example.test'
/**
 * What an organization that never listed an origin nor chose its digest or confirmations answers, and the
 * service's PUBLIC_BASE_URL beside its settings.
 */
const UNSET = { appOrigins: [], formOrigins: [], digestHour: 8, digestTimeZone: 'UTC', confirmRequests: false, publicBaseUrl: BASE_URL }
type MaskedEmail = { provider: string; fromEmail: string; fromName?: string; apiKeyLast4: string; updatedAt: string }

const SETTINGS = '/api/organizations/settings'
const EMAIL = '/api/organizations/settings/email'
const EMAIL_TEST = '/api/organizations/settings/email/test'
const SMTP_USER = 'mailer-user'
const SMTP_PASSWORD = 'smtp-Pa55word-never-shown'
const WRONG_PASSWORD = 'wrong-Pa55word-never-shown'
const SES_SECRET = 'sesSecretKeyNeverShown0123456789'

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

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()))
  const port = (probe.address() as AddressInfo).port
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

let api: TestServer
let world: World
let other: World
let smtp: Awaited<ReturnType<typeof startSmtpServer>>
let smtpUrl: string
let refusedUrl: string
const tokens: Record<string, string> = {}

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

const NON_ADMINS = ['staff', 'partnerAdmin', 'agent', 'volunteer', 'volunteerWithEveryProfile']
const getSettings = (token = tokens.admin) => api.call<Settings>('GET', SETTINGS, { token })
const putSettings = (body: unknown, token = tokens.admin) => api.call<Settings>('PUT', SETTINGS, { token, body })
const getEmail = (token = tokens.admin) => api.call<MaskedEmail>('GET', EMAIL, { token })
const putEmail = (body: unknown, token = tokens.admin) => api.call<MaskedEmail>('PUT', EMAIL, { token, body })
const testEmail = (body: unknown, token = tokens.admin) => api.call('POST', EMAIL_TEST, { token, body })

async function current(token = tokens.admin): Promise<Settings> {
  const response = await getSettings(token)
  expect(response.status).toBe(200)
  return response.body
}

const randomSlug = (label = 'org') => `${label}-${crypto.randomUUID().slice(0, 8)}`
const randomCode = (length = 5) => Array.from({ length }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join('')
const smtpSettings = (overrides: Record<string, unknown> = {}) => ({
  provider: 'smtp',
  apiKey: smtpUrl,
  fromEmail: 'desk@example.org',
  fromName: 'Intake Desk',
  ...overrides,
})

/** An organization of its own and the token of its only org_admin. */
async function organizationWithAdmin(): Promise<{ world: World; token: string }> {
  const fresh = await world.otherOrganization()
  const admin = (await fresh.repositories.members.findById(fresh.organizationId, fresh.admin.memberId))!
  const organization = (await fresh.repositories.organizations.findById(fresh.organizationId))!
  return { world: fresh, token: await api.login(admin.email, organization.slug) }
}

describe('GET /api/organizations/settings', () => {
  test('answers the organization of the org_admin: a new one has no short code, maxConcurrency 5 and the default audit retention', async () => {
    // A new organization of its own: other tests change this file's organization, in any order.
    const fresh = await world.otherOrganization()
    const response = await getSettings(await api.tokenFor(fresh, 'org_admin'))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('application/json')
    expect(Object.keys(response.body).sort()).toEqual([
      'appOrigins',
      'auditRetentionDays',
      'confirmRequests',
      'digestHour',
      'digestTimeZone',
      'formOrigins',
      'id',
      'maxConcurrency',
      'name',
      'publicBaseUrl',
      'slug',
    ])
    expect(response.body).toMatchObject({
      id: fresh.organizationId,
      maxConcurrency: 5,
      auditRetentionDays: DEFAULT_AUDIT_RETENTION_DAYS,
      ...UNSET,
    })
    expect(response.body.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
  })

  test('is 403 for every other role, profiles or not', async () => {
    for (const name of NON_ADMINS) expectProblem(await getSettings(tokens[name]), 403, 'Forbidden')
  })

  test('another organization’s admin reads its own organization, never this one', async () => {
    const theirs = await current(tokens.otherAdmin)
    const mine = await current()
    expect(theirs.id).toBe(other.organizationId)
    expect(theirs.slug).not.toBe(mine.slug)
  })

  test('without a token it is 401', async () => {
    expectProblem(await api.call('GET', SETTINGS), 401, 'Unauthorized')
  })
})

describe('PUT /api/organizations/settings', () => {
  test('replaces name, slug, shortCode, maxConcurrency and tcrStatus; GET answers the same', async () => {
    const slug = randomSlug('food-bank')
    const shortCode = randomCode(5)
    const response = await putSettings({
      name: '  Food Bank of the Valley ',
      slug,
      shortCode,
      maxConcurrency: 12,
      tcrStatus: 'VERIFIED',
      auditRetentionDays: DEFAULT_AUDIT_RETENTION_DAYS,
    })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      id: world.organizationId,
      name: 'Food Bank of the Valley',
      slug,
      shortCode,
      maxConcurrency: 12,
      tcrStatus: 'VERIFIED',
      auditRetentionDays: DEFAULT_AUDIT_RETENTION_DAYS,
      ...UNSET,
    })
    expect(await current()).toEqual(response.body)
  })

  test('shortCode, maxConcurrency and tcrStatus left out stay; null clears shortCode and tcrStatus', async () => {
    const slug = randomSlug()
    const shortCode = randomCode(4)
    await putSettings({
      name: 'Kept',
      slug,
      shortCode,
      maxConcurrency: 7,
      tcrStatus: 'IN_PROGRESS',
      auditRetentionDays: DEFAULT_AUDIT_RETENTION_DAYS,
    })
    const kept = await putSettings({ name: 'Kept Again', slug })
    expect(kept.status).toBe(200)
    expect(kept.body).toEqual({
      id: world.organizationId,
      name: 'Kept Again',
      slug,
      shortCode,
      maxConcurrency: 7,
      tcrStatus: 'IN_PROGRESS',
      auditRetentionDays: DEFAULT_AUDIT_RETENTION_DAYS,
      ...UNSET,
    })
    const cleared = await putSettings({ name: 'Cleared', slug, shortCode: null, tcrStatus: null })
    expect(cleared.status).toBe(200)
    expect(cleared.body).toEqual({
      id: world.organizationId,
      name: 'Cleared',
      slug,
      maxConcurrency: 7,
      auditRetentionDays: DEFAULT_AUDIT_RETENTION_DAYS,
      ...UNSET,
    })
    expect(await current()).toEqual(cleared.body)
  })

  test('the limits themselves are accepted: slug of 63, shortCode of 4 and 6, maxConcurrency 1 and 1000, tcrStatus of 64', async () => {
    const slug63 = `${crypto.randomUUID().replaceAll('-', '')}${'a'.repeat(31)}`
    expect(slug63).toHaveLength(63)
    const accepted = [
      { name: 'N', slug: slug63 },
      { name: 'N', slug: randomSlug(), shortCode: randomCode(4), maxConcurrency: 1 },
      { name: 'N', slug: randomSlug(), shortCode: randomCode(6), maxConcurrency: 1000, tcrStatus: 'x'.repeat(64) },
    ]
    for (const body of accepted) {
      const response = await putSettings(body)
      expect({ status: response.status, body: response.body }).toMatchObject({ status: 200, body })
    }
  })

  test.each([
    ['a slug with an underscore', { slug: 'bad_slug' }, '/slug'],
    ['a slug with capitals', { slug: 'Food-Bank' }, '/slug'],
    ['a slug starting with a hyphen', { slug: '-food' }, '/slug'],
    ['a slug ending with a hyphen', { slug: 'food-' }, '/slug'],
    ['a slug with a double hyphen', { slug: 'food--bank' }, '/slug'],
    ['a slug with a space', { slug: 'food bank' }, '/slug'],
    ['an empty slug', { slug: '' }, '/slug'],
    ['a slug of 64 characters', { slug: 'a'.repeat(64) }, '/slug'],
    ['shortCode AB (too short)', { shortCode: 'AB' }, '/shortCode'],
    ['shortCode ABC', { shortCode: 'ABC' }, '/shortCode'],
    ['shortCode of 7 letters', { shortCode: 'ABCDEFG' }, '/shortCode'],
    ['a lowercase shortCode', { shortCode: 'food' }, '/shortCode'],
    ['a shortCode with a digit', { shortCode: 'FO0D' }, '/shortCode'],
    ['an empty shortCode', { shortCode: '' }, '/shortCode'],
    ['maxConcurrency 0', { maxConcurrency: 0 }, '/maxConcurrency'],
    ['maxConcurrency 1001', { maxConcurrency: 1001 }, '/maxConcurrency'],
    ['maxConcurrency "5" as a string', { maxConcurrency: '5' }, '/maxConcurrency'],
    ['maxConcurrency 2.5', { maxConcurrency: 2.5 }, '/maxConcurrency'],
    ['maxConcurrency -1', { maxConcurrency: -1 }, '/maxConcurrency'],
    ['maxConcurrency null', { maxConcurrency: null }, '/maxConcurrency'],
    ['tcrStatus over 64 characters', { tcrStatus: 'x'.repeat(65) }, '/tcrStatus'],
    ['tcrStatus as a number', { tcrStatus: 3 }, '/tcrStatus'],
    ['an empty name', { name: '' }, '/name'],
    ['a blank name', { name: '   ' }, '/name'],
    ['a name over 200 characters', { name: 'x'.repeat(201) }, '/name'],
    ['phoneNumber (read-only)', { phoneNumber: '+15551234567' }, '/phoneNumber'],
    ["publicBaseUrl (read-only, the deployment's)", { publicBaseUrl: 'https://elsewhere.example' }, '/publicBaseUrl'],
    ['an id', { id: '2d9f4b1e-8c7a-4f3e-9b2d-1a6c5e4f3a2b' }, '/id'],
    ['an unknown property', { timezone: 'UTC' }, '/timezone'],
  ])('%s is 400 Invalid request naming the field, and nothing changes', async (_name, fields, field) => {
    const before = await current()
    const body = JSON.parse(JSON.stringify({ name: 'Renamed', slug: randomSlug(), ...fields }))
    const response = await putSettings(body)
    expect(response.status).not.toBe(422)
    expectBadRequest(response, field, 'Bad request')
    expect(await current()).toEqual(before)
  })

  test('a PUT is a partial update: what is left out stays, null clears a clearable field', async () => {
    const shortCode = randomCode(5)
    const before = await current()
    expect((await putSettings({ shortCode, tcrStatus: 'VERIFIED' })).status).toBe(200)
    expect(await current()).toEqual({ ...before, shortCode, tcrStatus: 'VERIFIED' })

    const renamed = await putSettings({ name: 'Only the name' })
    expect(renamed.body).toEqual({ ...before, name: 'Only the name', shortCode, tcrStatus: 'VERIFIED' })
    const cleared = await putSettings({ shortCode: null })
    const { shortCode: _cleared, ...withoutShortCode } = before
    expect(cleared.body).toEqual({ ...withoutShortCode, name: 'Only the name', tcrStatus: 'VERIFIED' })
    expect(await current()).toEqual(cleared.body)
    expect((await putSettings({})).body).toEqual(cleared.body)
  })

  test('a body that is not JSON is 400 Invalid request too', async () => {
    expectBadRequest(await api.call('PUT', SETTINGS, { token: tokens.admin, raw: '{"name":' }), undefined, 'Bad request')
  })

  test('a slug or short code of another organization is 409 Conflict; this organization keeps its own', async () => {
    const theirs = await current(tokens.otherAdmin)
    const theirCode = randomCode(6)
    expect((await putSettings({ name: theirs.name, slug: theirs.slug, shortCode: theirCode }, tokens.otherAdmin)).status).toBe(200)
    const before = await current()
    expectProblem(await putSettings({ name: 'Thief', slug: theirs.slug }), 409, 'Conflict')
    expectProblem(await putSettings({ name: 'Thief', slug: before.slug, shortCode: theirCode }), 409, 'Conflict')
    expect(await current()).toEqual(before)
    expect(await current(tokens.otherAdmin)).toMatchObject({ slug: theirs.slug, shortCode: theirCode })
  })

  test('its own slug and short code sent again are no conflict', async () => {
    const code = randomCode(5)
    const first = await putSettings({ name: 'Same', slug: randomSlug(), shortCode: code })
    expect(first.status).toBe(200)
    const again = await putSettings({ name: 'Same Again', slug: first.body.slug, shortCode: code })
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ slug: first.body.slug, shortCode: code, name: 'Same Again' })
  })

  test('two organizations taking one new slug at once: exactly one 200 and one 409', async () => {
    const [mine, theirs] = await Promise.all([current(), current(tokens.otherAdmin)])
    const slug = randomSlug('contested')
    const responses = await Promise.all([
      putSettings({ name: mine.name, slug }),
      putSettings({ name: theirs.name, slug }, tokens.otherAdmin),
    ])
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409])
    expectProblem(responses.find((r) => r.status === 409)!, 409, 'Conflict')
    const after = await Promise.all([current(), current(tokens.otherAdmin)])
    expect(after.filter((s) => s.slug === slug)).toHaveLength(1)
    const loser = after.find((s) => s.slug !== slug)!
    expect(loser.slug).toBe(loser.id === mine.id ? mine.slug : theirs.slug)
  })

  test('two organizations taking one new short code at once: exactly one 200 and one 409', async () => {
    const [mine, theirs] = await Promise.all([current(), current(tokens.otherAdmin)])
    const shortCode = randomCode(6)
    const responses = await Promise.all([
      putSettings({ name: mine.name, slug: mine.slug, shortCode }),
      putSettings({ name: theirs.name, slug: theirs.slug, shortCode }, tokens.otherAdmin),
    ])
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409])
    const after = await Promise.all([current(), current(tokens.otherAdmin)])
    expect(after.filter((s) => s.shortCode === shortCode)).toHaveLength(1)
  })

  test('a short code change changes the prefix of the next reference numbers only', async () => {
    const settings = await current()
    await putSettings({ name: settings.name, slug: settings.slug, shortCode: null })
    const createNeed = async () => {
      const response = await api.call<{ id: string; referenceNumber: string }>('POST', '/api/needs', {
        token: tokens.admin,
        body: { partnerId: world.defaultPartner.id },
      })
      expect(response.status).toBe(201)
      return response.body
    }
    const before = await createNeed()
    expect(before.referenceNumber).toMatch(/^REQ-\d+$/)
    const n = Number(before.referenceNumber.split('-')[1])

    const shortCode = randomCode(6)
    expect((await putSettings({ name: settings.name, slug: settings.slug, shortCode })).status).toBe(200)
    const after = await createNeed()
    expect(after.referenceNumber).toBe(`${shortCode}-${n + 1}`)

    // The older need keeps its number, and both are found by it.
    const old = await api.call('GET', `/api/needs/${before.referenceNumber.toLowerCase()}`, { token: tokens.admin })
    expect(old.status).toBe(200)
    expect(old.body).toMatchObject({ id: before.id, referenceNumber: before.referenceNumber })
    expect((await api.call('GET', `/api/needs/${after.referenceNumber}`, { token: tokens.admin })).body.id).toBe(after.id)

    expect((await putSettings({ name: settings.name, slug: settings.slug, shortCode: null })).status).toBe(200)
    expect((await createNeed()).referenceNumber).toBe(`REQ-${n + 2}`)
  })

  test('after a slug change, logging in with the new slug works and with the old one does not', async () => {
    const settings = await current()
    const email = (await api.call('GET', '/api/profile', { token: tokens.admin })).body.email
    const slug = randomSlug('renamed')
    expect((await putSettings({ name: settings.name, slug })).status).toBe(200)
    const login = (organizationSlug: string) =>
      api.call('POST', '/api/auth/login', { body: { email, password: TEST_PASSWORD, organizationSlug } })
    expect((await login(slug)).status).toBe(200)
    expectProblem(await login(settings.slug), 401, 'Unauthorized')
  })

  test('is 403 for every other role, and nothing changes', async () => {
    const before = await current()
    for (const name of NON_ADMINS) {
      expectProblem(await putSettings({ name: 'Taken Over', slug: randomSlug() }, tokens[name]), 403, 'Forbidden')
    }
    expect(await current()).toEqual(before)
  })

  test('another organization’s admin changes only its own organization', async () => {
    const mine = await current()
    const theirs = await current(tokens.otherAdmin)
    const response = await putSettings({ name: 'Their New Name', slug: theirs.slug, maxConcurrency: 99 }, tokens.otherAdmin)
    expect(response.status).toBe(200)
    expect(response.body.id).toBe(other.organizationId)
    expect(await current()).toEqual(mine)
  })

  test('without a token it is 401, before the body is looked at', async () => {
    expectProblem(await api.call('PUT', SETTINGS, { body: { name: 'N', slug: randomSlug() } }), 401, 'Unauthorized')
    expectProblem(await api.call('PUT', SETTINGS, { body: { slug: 'Bad_Slug' } }), 401, 'Unauthorized')
  })
})

describe('retention settings (docs/privacy.md)', () => {
  test('constituentRetentionDays and needTextRetentionDays: 30 days at least, answered once set, null stops them', async () => {
    const { world: fresh, token } = await organizationWithAdmin()
    for (const field of ['constituentRetentionDays', 'needTextRetentionDays']) {
      for (const bad of [29, 36501, 30.5, '90']) expectBadRequest(await putSettings({ [field]: bad }, token), `/${field}`)
      expect((await current(token))[field as keyof Settings]).toBeUndefined()
    }

    expect((await putSettings({ constituentRetentionDays: 30, needTextRetentionDays: 365 }, token)).body).toMatchObject({
      constituentRetentionDays: 30,
      needTextRetentionDays: 365,
    })
    expect(await current(token)).toMatchObject({ constituentRetentionDays: 30, needTextRetentionDays: 365 })

    const stopped = (await putSettings({ constituentRetentionDays: null }, token)).body
    expect(stopped).not.toHaveProperty('constituentRetentionDays')
    expect(stopped).toMatchObject({ needTextRetentionDays: 365 })
    const { items } = await fresh.useCases.audit.list.execute(
      fresh.admin,
      { recordType: 'organization', action: 'update' },
      { page: 1, limit: 10 },
    )
    expect(items.map((e) => e.fields)).toEqual([['constituentRetentionDays'], ['constituentRetentionDays', 'needTextRetentionDays']])
  })
})

describe('email settings', () => {
  test('GET is 404 while none are set (mail goes to the fallback)', async () => {
    const fresh = await world.otherOrganization()
    const body = expectProblem(await getEmail(await api.tokenFor(fresh, 'org_admin')), 404, 'Not found')
    expect(body.detail).toContain('Email settings')
  })

  test('PUT answers the masked settings, never the key; GET answers the same', async () => {
    const response = await putEmail(smtpSettings())
    expect(response.status).toBe(200)
    expect(Object.keys(response.body).sort()).toEqual(['apiKeyLast4', 'fromEmail', 'fromName', 'provider', 'updatedAt'])
    expect(response.body).toMatchObject({
      provider: 'smtp',
      fromEmail: 'desk@example.org',
      fromName: 'Intake Desk',
      apiKeyLast4: smtpUrl.slice(-4),
    })
    expect(response.body.updatedAt).toMatch(ISO_MS)
    expect(JSON.stringify(response.body)).not.toContain(SMTP_PASSWORD)
    const read = await getEmail()
    expect(read.status).toBe(200)
    expect(read.body).toEqual(response.body)
    expect(JSON.stringify(read.body)).not.toContain(SMTP_PASSWORD)
  })

  test('a key left out is the stored one, for its own provider only: PUT keeps it, a test sends with it', async () => {
    const { token } = await organizationWithAdmin()
    const { apiKey: _typed, ...withoutKey } = smtpSettings()
    expect(expectBadRequest(await putEmail(withoutKey, token)).errors?.map((e) => e.path)).toEqual(['/apiKey'])
    expect((await putEmail(smtpSettings(), token)).status).toBe(200)

    const kept = await putEmail({ ...withoutKey, fromName: 'Front Desk' }, token)
    expect(kept.status).toBe(200)
    expect(kept.body).toMatchObject({ fromName: 'Front Desk', apiKeyLast4: smtpUrl.slice(-4) })
    const sent = smtp.received.length
    expect((await testEmail({ ...withoutKey, toEmail: 'someone@example.org' }, token)).status).toBe(200)
    expect(smtp.received.slice(sent)).toMatchObject([{ to: ['someone@example.org'], user: SMTP_USER }])

    // The stored SMTP URL goes to no other provider.
    const elsewhere = { ...withoutKey, provider: 'sendgrid', toEmail: 'someone@example.org' }
    expect(expectBadRequest(await testEmail(elsewhere, token)).errors?.map((e) => e.path)).toEqual(['/apiKey'])
    expect(expectBadRequest(await putEmail({ ...withoutKey, provider: 'postmark' }, token)).errors?.map((e) => e.path)).toEqual(['/apiKey'])
    expect((await getEmail(token)).body).toMatchObject({ provider: 'smtp', fromName: 'Front Desk' })
  })

  test('every provider is accepted with a key of its shape; fromName left out is omitted', async () => {
    const { token } = await organizationWithAdmin()
    const cases = [
      { provider: 'postmark', apiKey: 'postmark-server-token-abcd1234', fromEmail: 'a@example.org' },
      { provider: 'sendgrid', apiKey: 'SG.sendgrid-key-wxyz', fromEmail: 'b@example.org', fromName: 'Desk' },
      { provider: 'ses', apiKey: `AKIAEXAMPLE:${SES_SECRET}:us-east-1`, fromEmail: 'c@example.org' },
      { provider: 'smtp', apiKey: `smtps://${SMTP_USER}:${SMTP_PASSWORD}@mail.example.org:465`, fromEmail: 'd@example.org' },
    ]
    for (const settings of cases) {
      const response = await putEmail(settings, token)
      expect(response.status).toBe(200)
      const { apiKey, ...visible } = settings
      expect(response.body).toEqual({ ...visible, apiKeyLast4: apiKey.slice(-4), updatedAt: response.body.updatedAt })
      expect(JSON.stringify(response.body)).not.toContain(apiKey)
      expect((await getEmail(token)).body).toEqual(response.body)
    }
  })

  test.each([
    ['an unknown provider', { provider: 'mailgun' }, '/provider'],
    ['a provider in capitals', { provider: 'SMTP' }, '/provider'],
    ['no provider', { provider: undefined }, '/provider'],
    ['an smtp key that is an https URL', { apiKey: `https://${SMTP_USER}:${SMTP_PASSWORD}@mail.example.org` }, '/apiKey'],
    ['an smtp key that is not a URL', { apiKey: SMTP_PASSWORD }, '/apiKey'],
    ['an smtp URL without a host', { apiKey: 'smtp://' }, '/apiKey'],
    ['an ses key without a region', { provider: 'ses', apiKey: `AKIAEXAMPLE:${SES_SECRET}` }, '/apiKey'],
    ['an ses key with a made-up region', { provider: 'ses', apiKey: `AKIAEXAMPLE:${SES_SECRET}:moon` }, '/apiKey'],
    ['an ses key with an empty part', { provider: 'ses', apiKey: `:${SES_SECRET}:us-east-1` }, '/apiKey'],
    ['an ses key that is an SMTP URL', { provider: 'ses', apiKey: smtpUrlPlaceholder() }, '/apiKey'],
    ['an empty apiKey', { apiKey: '' }, '/apiKey'],
    ['a blank postmark key', { provider: 'postmark', apiKey: '   ' }, '/apiKey'],
    ['no apiKey for a provider no key is stored for', { provider: 'postmark', apiKey: undefined }, '/apiKey'],
    ['a bad fromEmail', { fromEmail: 'desk at example.org' }, '/fromEmail'],
    ['no fromEmail', { fromEmail: undefined }, '/fromEmail'],
    ['a fromName over 200 characters', { fromName: 'x'.repeat(201) }, '/fromName'],
    ['apiKeyLast4 (answered, not taken)', { apiKeyLast4: '1234' }, '/apiKeyLast4'],
    ['an unknown property', { replyTo: 'x@example.org' }, '/replyTo'],
  ])('%s is 400 Invalid input naming the field, no secret in the answer, and nothing changes', async (_name, fields, field) => {
    const before = await getEmail()
    const body = JSON.parse(JSON.stringify({ ...smtpSettings({ fromName: 'Changed' }), ...fields }))
    const response = await putEmail(body)
    expect(response.status).not.toBe(422)
    expectBadRequest(response, field, 'Bad request')
    for (const secret of [SMTP_PASSWORD, SES_SECRET]) expect(JSON.stringify(response.body)).not.toContain(secret)
    expect(await getEmail()).toMatchObject({ status: before.status, body: before.body })
  })

  test('is 403 for every other role on GET and PUT, and nothing changes', async () => {
    const before = (await getEmail()).body
    for (const name of NON_ADMINS) {
      expectProblem(await getEmail(tokens[name]), 403, 'Forbidden')
      expectProblem(await putEmail(smtpSettings({ fromEmail: 'thief@example.org' }), tokens[name]), 403, 'Forbidden')
    }
    expect((await getEmail()).body).toEqual(before)
  })

  test('another organization sees none of them: its GET stays 404 while this one has settings', async () => {
    expect((await putEmail(smtpSettings())).status).toBe(200)
    expect((await getEmail()).status).toBe(200)
    expectProblem(await getEmail(tokens.otherAdmin), 404, 'Not found')
  })

  test('without a token both are 401', async () => {
    expectProblem(await api.call('GET', EMAIL), 401, 'Unauthorized')
    expectProblem(await api.call('PUT', EMAIL, { body: smtpSettings() }), 401, 'Unauthorized')
  })
})

describe('POST /api/organizations/settings/email/test', () => {
  const probe = (overrides: Record<string, unknown> = {}) => ({ ...smtpSettings(), toEmail: 'someone@example.org', ...overrides })

  test('sends one real message with the proposed settings: 200 {delivered: true, messageId}', async () => {
    const sent = smtp.received.length
    const response = await testEmail(probe(), tokens.otherAdmin)
    expect(response.status).toBe(200)
    expect(Object.keys(response.body).sort()).toEqual(['delivered', 'messageId'])
    expect(response.body.delivered).toBe(true)
    expect(typeof response.body.messageId).toBe('string')
    expect(response.body.messageId.length).toBeGreaterThan(0)

    expect(smtp.received.length).toBe(sent + 1)
    const message = smtp.received.at(-1)!
    expect(message).toMatchObject({ from: 'desk@example.org', to: ['someone@example.org'], user: SMTP_USER })
    expect(message.headers).toContain('Subject: Test message from the intake service')
    expect(message.headers).toMatch(/^From: "?Intake Desk"? <desk@example\.org>\r$/m)
    expect(message.headers).toContain(response.body.messageId)
    expect(message.body).toContain('smtp')
  })

  test('stores nothing: an organization without settings still has none, one with settings keeps its own', async () => {
    expect((await testEmail(probe({ fromEmail: 'probe@example.org' }), tokens.otherAdmin)).status).toBe(200)
    expectProblem(await getEmail(tokens.otherAdmin), 404, 'Not found')

    const before = (await getEmail()).body
    expect((await testEmail(probe({ fromEmail: 'probe@example.org', fromName: 'Probe' }))).status).toBe(200)
    expect((await getEmail()).body).toEqual(before)
  })

  test('an SMTP server that cannot be reached is 502 Failed to send email, the password removed', async () => {
    const response = await testEmail(probe({ apiKey: refusedUrl }))
    const body = expectProblem(response, 502, 'Bad gateway')
    expect(body.detail).toMatch(/ECONNREFUSED|could not be reached/)
    expect(body.detail).not.toContain(SMTP_PASSWORD)
    expect(body.detail).not.toContain(refusedUrl)
  })

  test('the same for the literal closed port 127.0.0.1:9', async () => {
    const body = expectProblem(await testEmail(probe({ apiKey: `smtp://u:${SMTP_PASSWORD}@127.0.0.1:9` })), 502, 'Bad gateway')
    expect(body.detail).not.toContain(SMTP_PASSWORD)
  })

  test('a login the server refuses is 502 with its reason, neither password in it', async () => {
    const apiKey = `smtp://${SMTP_USER}:${WRONG_PASSWORD}@127.0.0.1:${smtp.port}`
    const sent = smtp.received.length
    const body = expectProblem(await testEmail(probe({ apiKey })), 502, 'Bad gateway')
    expect(body.detail).toContain('535')
    for (const secret of [WRONG_PASSWORD, SMTP_PASSWORD, apiKey]) expect(body.detail).not.toContain(secret)
    expect(smtp.received.length).toBe(sent)
  })

  test('a recipient the server refuses is 502 with its reason', async () => {
    const body = expectProblem(await testEmail(probe({ toEmail: 'blocked@example.org' })), 502, 'Bad gateway')
    expect(body.detail).toContain('550')
    expect(body.detail).not.toContain(SMTP_PASSWORD)
  })

  test.each([
    ['no toEmail', { toEmail: undefined }, '/toEmail'],
    ['a bad toEmail', { toEmail: 'someone' }, '/toEmail'],
    ['an unknown provider', { provider: 'mailgun' }, '/provider'],
    ['an smtp key that is not an SMTP URL', { apiKey: 'http://127.0.0.1:25' }, '/apiKey'],
    ['an ses key that is not AKID:SECRET:REGION', { provider: 'ses', apiKey: `AKIAEXAMPLE:${SES_SECRET}` }, '/apiKey'],
    ['no fromEmail', { fromEmail: undefined }, '/fromEmail'],
    ['an unknown property', { cc: 'x@example.org' }, '/cc'],
  ])('%s is 400 Invalid input, and nothing is sent', async (_name, fields, field) => {
    const sent = smtp.received.length
    const response = await testEmail(JSON.parse(JSON.stringify(probe(fields))))
    expectBadRequest(response, field, 'Bad request')
    for (const secret of [SMTP_PASSWORD, SES_SECRET]) expect(JSON.stringify(response.body)).not.toContain(secret)
    expect(smtp.received.length).toBe(sent)
  })

  test('is 403 for every other role, and nothing is sent', async () => {
    const sent = smtp.received.length
    for (const name of NON_ADMINS) expectProblem(await testEmail(probe(), tokens[name]), 403, 'Forbidden')
    expect(smtp.received.length).toBe(sent)
  })

  test('without a token it is 401, and nothing is sent', async () => {
    const sent = smtp.received.length
    expectProblem(await api.call('POST', EMAIL_TEST, { body: probe() }), 401, 'Unauthorized')
    expect(smtp.received.length).toBe(sent)
  })
})

describe('outgoing mail goes through the organization’s own provider', () => {
  test('an invitation is sent by SMTP (not logged), and its link works', async () => {
    expect((await putEmail(smtpSettings())).status).toBe(200)
    const email = `smtp-invitee-${crypto.randomUUID().slice(0, 8)}@example.org`
    expect((await api.call('POST', '/api/members', { token: tokens.admin, body: { email, role: 'staff' } })).status).toBe(201)

    const message = await deliverUntil(api, () => smtp.received.find((m) => m.to.includes(email)), `the invitation to ${email}`)
    expect(message).toMatchObject({ from: 'desk@example.org', user: SMTP_USER })
    expect(message.headers).toMatch(/^From: "?Intake Desk"? <desk@example\.org>\r$/m)
    const { link, token } = invitationIn(message.body)
    expect(link).toStartWith(`${BASE_URL}/accept-invite?token=`)
    expect(loggedEmailsTo(api, email)).toEqual([])
    expect(api.logs.join('\n')).not.toContain(token)

    const accepted = await api.call('POST', '/api/auth/accept-invite', { body: { token, password: 'a long enough password' } })
    expect(accepted.status).toBe(200)
  })

  test('another organization without settings still writes its mail to the log, not to this provider', async () => {
    const email = `log-invitee-${crypto.randomUUID().slice(0, 8)}@example.org`
    expect((await api.call('POST', '/api/members', { token: tokens.otherAdmin, body: { email, role: 'staff' } })).status).toBe(201)
    const logged = await loggedInvitationTo(api, email)
    expect(logged.organizationId).toBe(other.organizationId)
    expect(smtp.received.some((m) => m.to.includes(email))).toBe(false)
  })

  test('no secret was ever logged or stored in clear', async () => {
    // Whatever ran before (in any order), plus each way a secret comes in: stored settings of two providers,
    // a refused login, and mail sent with them.
    const { token } = await organizationWithAdmin()
    expect(
      (await putEmail({ provider: 'ses', apiKey: `AKIAEXAMPLE:${SES_SECRET}:us-east-1`, fromEmail: 'c@example.org' }, token)).status,
    ).toBe(200)
    expect((await putEmail(smtpSettings())).status).toBe(200)
    const apiKey = `smtp://${SMTP_USER}:${WRONG_PASSWORD}@127.0.0.1:${smtp.port}`
    expect((await testEmail({ ...smtpSettings(), apiKey, toEmail: 'someone@example.org' })).status).toBe(502)
    const email = `smtp-invitee-${crypto.randomUUID().slice(0, 8)}@example.org`
    expect((await api.call('POST', '/api/members', { token: tokens.admin, body: { email, role: 'staff' } })).status).toBe(201)
    await deliverUntil(api, () => smtp.received.find((m) => m.to.includes(email)), `the invitation to ${email}`)
    const logs = api.logs.join('\n')
    for (const secret of [SMTP_PASSWORD, WRONG_PASSWORD, SES_SECRET]) expect(logs).not.toContain(secret)
    const stored = await api.storedBytes()
    expect(stored.length).toBeGreaterThan(0)
    for (const bytes of stored) {
      for (const secret of [SMTP_PASSWORD, SES_SECRET]) expect(bytes.includes(secret)).toBe(false)
    }
    // The search can find what is there: the invitees' emails are stored in clear.
    expect(stored.some((bytes) => bytes.includes('smtp-invitee-'))).toBe(true)
  })
})

function smtpUrlPlaceholder(): string {
  return `smtp://${SMTP_USER}:${SMTP_PASSWORD}@mail.example.org:587`
}

describe('EMAIL_BLOCK_PRIVATE_HOSTS=true (a hosted, multi-organization deployment)', () => {
  let hosted: TestServer
  let token: string
  beforeAll(async () => {
    hosted = await startTestServer({ EMAIL_BLOCK_PRIVATE_HOSTS: 'true' })
    token = await hosted.tokenFor(hosted.world, 'org_admin')
  })
  afterAll(() => hosted.stop())

  const REFUSED_HOSTS = () => [
    `127.0.0.1:${smtp.port}`,
    '127.0.0.1:1',
    'localhost:25',
    '[::1]:25',
    '169.254.169.254:25',
    '10.0.0.1:25',
    '0.0.0.0:25',
    '[fe80::1]:25',
  ]

  test('the test endpoint refuses loopback, private, link-local and unspecified hosts with the same 400 at /apiKey, and connects to none', async () => {
    const sent = smtp.received.length
    const bodies = new Set<string>()
    for (const host of REFUSED_HOSTS()) {
      const response = await hosted.call('POST', EMAIL_TEST, {
        token,
        body: {
          provider: 'smtp',
          apiKey: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@${host}`,
          fromEmail: 'desk@example.org',
          toEmail: 'someone@example.org',
        },
      })
      const body = expectBadRequest(response, '/apiKey', 'Bad request')
      expect(JSON.stringify(body)).not.toContain(SMTP_PASSWORD)
      bodies.add(JSON.stringify(body))
    }
    // One answer for all: nothing tells a listening server from a closed port or an address from a name.
    expect(bodies.size).toBe(1)
    expect(smtp.received.length).toBe(sent)
  })

  test('settings naming such a host are refused (400 at /apiKey) and not stored', async () => {
    const before = await hosted.call('GET', EMAIL, { token })
    for (const host of REFUSED_HOSTS()) {
      const response = await hosted.call('PUT', EMAIL, {
        token,
        body: { provider: 'smtp', apiKey: `smtp://u:p@${host}`, fromEmail: 'desk@example.org' },
      })
      expectBadRequest(response, '/apiKey', 'Bad request')
    }
    const after = await hosted.call('GET', EMAIL, { token })
    expect({ status: after.status, body: after.body }).toEqual({ status: before.status, body: before.body })
    expect((after.body as { provider?: string }).provider).not.toBe('smtp')
  })

  test('providers with fixed public endpoints are not affected', async () => {
    const response = await hosted.call('PUT', EMAIL, {
      token,
      body: { provider: 'postmark', apiKey: 'pm-token-123456', fromEmail: 'desk@example.org' },
    })
    expect(response.status).toBe(200)
  })
})
