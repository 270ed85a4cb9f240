import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import { deliverUntil, fallbackEmailsTo } from './helpers'

// docs/api/organization.md "Notifications" over real HTTP, on SQLite and PostgreSQL.
let api: TestServer
beforeAll(async () => {
  api = await startTestServer()
})
afterAll(() => api.stop())

const profileOf = async (token: string) => (await api.call('GET', '/api/profile', { token })).body

describe('notifications', () => {
  test('the profile says what the member is mailed about, and takes changes kind by kind, with its language', async () => {
    const token = await api.tokenFor(api.world, 'staff')
    expect(await profileOf(token)).toMatchObject({
      language: 'en',
      notifications: { newNeeds: false, assignedToMe: true, dailyDigest: true },
    })
    const changed = await api.call('PUT', '/api/profile', { token, body: { language: 'es', notifications: { newNeeds: true } } })
    expect(changed).toMatchObject({
      status: 200,
      body: { language: 'es', notifications: { newNeeds: true, assignedToMe: true, dailyDigest: true } },
    })
    const refused = await api.call('PUT', '/api/profile', { token, body: { language: 'fr', notifications: { sms: true } } })
    expect(refused.status).toBe(400)
    expect(refused.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['/language', '/notifications/sms'])
  })

  test('a need from the public intake reaches its partner’s admin by mail, with nothing of the person in it', async () => {
    const pantry = await api.world.partner({ name: 'Pantry' })
    const token = await api.tokenFor(api.world, 'partner_admin', { partnerId: pantry.id })
    const { email } = await profileOf(token)
    const person = { firstName: 'Grace', lastName: 'Hopper', phone: '+15550100124', email: 'grace.h@example.org' }
    const submitted = await api.call('POST', '/api/needs/public', {
      body: {
        organizationId: api.world.organizationId,
        partnerId: pantry.id,
        description: 'No heating since Monday',
        customFields: person,
      },
    })
    expect(submitted.status).toBe(201)
    const mail = await deliverUntil(
      api,
      () => fallbackEmailsTo(api, email).find((m) => m.subject.includes(submitted.body.referenceNumber)),
      `the new-need mail to ${email}`,
    )
    expect(mail.subject).toBe(`New request ${submitted.body.referenceNumber} for Pantry`)
    expect(mail.text).toContain(`/#/needs/${submitted.body.referenceNumber}`)
    for (const personal of [...Object.values(person), 'No heating']) expect(mail.text).not.toContain(personal)
  })

  test('an assignment by someone else mails the assignee', async () => {
    const admin = await api.tokenFor(api.world, 'org_admin')
    const agentToken = await api.tokenFor(api.world, 'staff')
    const agent = await profileOf(agentToken)
    const created = await api.call('POST', '/api/needs', { token: admin, body: { partnerId: api.world.defaultPartner.id } })
    expect((await api.call('PUT', `/api/needs/${created.body.id}`, { token: admin, body: { assignedTo: agent.id } })).status).toBe(200)
    const mail = await deliverUntil(
      api,
      () => fallbackEmailsTo(api, agent.email).find((m) => m.subject.includes(created.body.referenceNumber)),
      'the assignment mail',
    )
    expect(mail.subject).toBe(`Request ${created.body.referenceNumber} is assigned to you`)
  })
})
