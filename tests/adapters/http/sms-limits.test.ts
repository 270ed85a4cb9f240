import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import { expectProblem, seedConstituent } from './helpers'

// docs/api/organization.md "SMS": texts per number and per member within the hour, over real HTTP on the database the tests
// run on (the log provider sends, so no number is needed). 2 texts per number, 3 per member here.
let api: TestServer
let admin: string
beforeAll(async () => {
  api = await startTestServer({ SMS_PER_RECIPIENT_PER_HOUR: '2', SMS_PER_MEMBER_PER_HOUR: '3' })
  admin = await api.tokenFor(api.world, 'org_admin')
})
afterAll(() => api.stop())

async function needFor(phone: string, token: string, server = api): Promise<string> {
  const { constituentId } = await seedConstituent(server, token, { firstName: 'Grace', phone })
  const need = await server.call<{ id: string }>('POST', '/api/needs', {
    token,
    body: { partnerId: server.world.defaultPartner.id, constituentId },
  })
  expect(need.status).toBe(201)
  return need.body.id
}
const text = (needId: string, token: string, server = api) =>
  server.call('POST', `/api/needs/${needId}/sms`, { token, body: { body: 'Your box is ready' } })
const canText = async (needId: string, token: string, server = api) =>
  (await server.call<{ canText: boolean; cannotTextReason?: string }>('GET', `/api/needs/${needId}`, { token })).body

describe('POST /api/needs/{id}/sms past a limit', () => {
  test('a number texted twice within the hour is 429 with Retry-After, whoever sends; another number is texted', async () => {
    const colleague = await api.tokenFor(api.world, 'staff', { profiles: ['sms_communicator'] })
    const first = await needFor('+15550003001', admin)
    const second = await needFor('+15550003001', admin)
    expect((await text(first, admin)).status).toBe(202)
    expect((await text(second, colleague)).status).toBe(202)

    const refused = await text(first, colleague)
    expectProblem(refused, 429, 'Too many requests')
    expect(Number(refused.headers.get('retry-after'))).toBe(3600)
    expect(refused.body.detail).toContain('This number was sent 2 texts within the hour')
    expect((await api.call<unknown[]>('GET', `/api/needs/${first}/interactions`, { token: admin })).body).toHaveLength(1)
    expect((await text(await needFor('+15550003002', colleague), colleague)).status).toBe(202)
  })

  test('a member who sent 3 texts within the hour is 429 with Retry-After; another member still sends', async () => {
    const sender = await api.tokenFor(api.world, 'staff', { profiles: ['sms_communicator'] })
    for (const phone of ['+15550004001', '+15550004002', '+15550004003'])
      expect((await text(await needFor(phone, sender), sender)).status).toBe(202)
    const next = await needFor('+15550004004', sender)
    const refused = await text(next, sender)
    expectProblem(refused, 429, 'Too many requests')
    expect(Number(refused.headers.get('retry-after'))).toBe(3600)
    expect(refused.body.detail).toContain('You sent 3 texts within the hour')
    expect((await text(next, admin)).status).toBe(202)
  })
})

describe('canText and the limits (docs/api/needs.md "Texting a need")', () => {
  test('provider-log: with the log provider a need cannot be texted to anyone, and a staff text is still recorded (202)', async () => {
    const needId = await needFor('+15550005001', admin)
    expect(await canText(needId, admin)).toEqual(expect.objectContaining({ canText: false, cannotTextReason: 'provider-log' }))
    expect((await text(needId, admin)).status).toBe(202)
  })

  test('limit-reached: through Twilio, a number sent its texts of the hour cannot be texted until the hour passes', async () => {
    const twilio = await startTestServer({
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
      TWILIO_AUTH_TOKEN: 'test-token',
      SERVE_RUNS_WORKER: 'false',
      SMS_PER_RECIPIENT_PER_HOUR: '1',
    })
    try {
      const { slug } = (await twilio.world.repositories.organizations.findById(twilio.world.organizationId))!
      await twilio.world.useCases.operations.setOrganizationPhoneNumber.execute(slug, '+15550005000')
      const token = await twilio.tokenFor(twilio.world, 'org_admin')
      const needId = await needFor('+15550005002', token, twilio)
      expect(await canText(needId, token, twilio)).toMatchObject({ canText: true })
      expect((await text(needId, token, twilio)).status).toBe(202)
      expect(await canText(needId, token, twilio)).toMatchObject({ canText: false, cannotTextReason: 'limit-reached' })
      expectProblem(await text(needId, token, twilio), 429, 'Too many requests')
      twilio.world.clock.advance(3_600_000)
      // A fresh token: the first one expired with the hour.
      expect(await canText(needId, await twilio.tokenFor(twilio.world, 'org_admin'), twilio)).toMatchObject({ canText: true })
    } finally {
      await twilio.stop()
    }
  })
})
