import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import { expectBadRequest, expectProblem } from './helpers'
import { api, openSettingsServer, refusedUrl, smtp, tokens } from './organization-settings-support'
import { EMAIL, EMAIL_TEST, getEmail, NON_ADMINS, SES_SECRET, SMTP_PASSWORD, SMTP_USER } from './organization-settings-support'
import { smtpSettings, testEmail, WRONG_PASSWORD } from './organization-settings-support'

// docs/api/organization.md "Organization settings" and "Outgoing mail": trying email settings before keeping them, over
// real HTTP, with a real SMTP server on 127.0.0.1. A test sends one real message and stores nothing, tells
// why a send failed without the password, and on a hosted deployment reaches no private host.
openSettingsServer()

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
