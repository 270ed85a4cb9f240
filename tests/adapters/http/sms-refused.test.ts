import { describe, expect, test } from 'bun:test'
import { expectBadRequest, expectProblem, UNKNOWN_ID } from './helpers'
import { admin, api, interaction, interactions, needFor, newPhone, openSmsServer, queued, setPhoneNumber, text, world } from './sms-support'

// docs/api/organization.md "SMS", docs/api/conventions.md "Errors" and docs/api/access.md "Permissions": the texts the service
// refuses to send, over real HTTP. A
// refused text must be recorded nowhere and queued for no one, whatever the reason.
openSmsServer()

describe('POST /api/needs/{id}/sms: what is refused', () => {
  test('a need without a constituent is 400, and nothing is recorded', async () => {
    const need = await api.call<{ id: string }>('POST', '/api/needs', { token: admin, body: { partnerId: world.defaultPartner.id } })
    const body = expectBadRequest(await text(need.body.id, { body: 'Hello' }))
    expect(body.detail).toContain('no constituent')
    expect(await interactions(need.body.id)).toEqual([])
  })

  test('a constituent without a phone number is 400', async () => {
    const needId = await needFor(null)
    const body = expectBadRequest(await text(needId, { body: 'Hello' }))
    expect(body.detail).toContain('no phone number')
    expect(await interactions(needId)).toEqual([])
  })

  test('an organization without an SMS number is 400 with Twilio (the operator sets it)', async () => {
    const numberless = await world.otherOrganization()
    const token = await api.tokenFor(numberless, 'org_admin')
    const needId = await needFor(newPhone(), token, numberless)
    const body = expectBadRequest(await text(needId, { body: 'Hello' }, token))
    expect(body.detail).toContain('set-phone-number')
    expect(await interactions(needId, token)).toEqual([])
    // Once it has one, the same text is accepted, sent from that number.
    await setPhoneNumber(numberless, newPhone())
    expect((await text(needId, { body: 'Hello' }, token)).status).toBe(202)
  })

  test.each([
    ['an empty body', { body: '' }],
    ['a body over 1600 characters', { body: 'x'.repeat(1601) }],
    ['no body field', {}],
    ['a body that is not a string', { body: 42 }],
    ['an unknown property', { body: 'Hello', mediaUrl: 'https://x.test/a.png' }],
  ])('%s is 400 naming the field, and nothing is queued', async (_name, payload) => {
    const needId = await needFor(newPhone())
    const response = await text(needId, payload)
    expect(response.status).not.toBe(422)
    expectBadRequest(response, 'mediaUrl' in payload ? '/mediaUrl' : '/body')
    expect(await interactions(needId)).toEqual([])
  })

  test('a body of exactly 1600 characters is accepted', async () => {
    const needId = await needFor(newPhone())
    const id = await queued(needId, 'y'.repeat(1600))
    expect((await interaction(needId, id))?.content).toHaveLength(1600)
  })

  test('an over-long id is 400, no token 401', async () => {
    expectBadRequest(await text('x'.repeat(65), { body: 'Hello' }), 'id')
    const needId = await needFor(newPhone())
    expectProblem(await api.call('POST', `/api/needs/${needId}/sms`, { body: { body: 'Hello' } }), 401, 'Unauthorized')
    expect(await interactions(needId)).toEqual([])
  })

  test('403 for roles without sms_communicator; 202 with it (docs/api/access.md "Permissions")', async () => {
    const needId = await needFor(newPhone())
    const partner = await world.partner({ name: 'SMS partner' })
    const refused = await Promise.all([
      api.tokenFor(world, 'staff'),
      api.tokenFor(world, 'staff', { profiles: ['pii_reader', 'email_phone_communicator'] }),
      api.tokenFor(world, 'partner_admin', { partnerId: partner.id }),
      api.tokenFor(world, 'volunteer', { partnerId: world.defaultPartner.id }),
    ])
    for (const token of refused) expectProblem(await text(needId, { body: 'Hello' }, token), 403, 'Forbidden')
    expect(await interactions(needId)).toEqual([])

    const communicator = await api.tokenFor(world, 'staff', { profiles: ['sms_communicator'] })
    const id = await queued(needId, 'Hello from staff', communicator)
    expect((await interaction(needId, id))?.content).toBe('Hello from staff')
    const volunteer = await api.tokenFor(world, 'volunteer', { partnerId: world.defaultPartner.id, profiles: ['sms_communicator'] })
    await queued(needId, 'Hello from a volunteer', volunteer)
  })

  test("404 for another organization's need (the same answer as an unknown id), and for a need outside a partner role's scope", async () => {
    const needId = await needFor(newPhone())
    const other = await world.otherOrganization()
    await setPhoneNumber(other, newPhone())
    const stranger = await api.tokenFor(other, 'org_admin')
    const foreign = await text(needId, { body: 'Hello' }, stranger)
    expectProblem(foreign, 404, 'Not found')
    expect((await text(UNKNOWN_ID, { body: 'Hello' }, stranger)).body).toEqual(foreign.body)

    const elsewhere = await world.partner({ name: 'Elsewhere' })
    const agent = await api.tokenFor(world, 'partner_agent', { partnerId: elsewhere.id, profiles: ['sms_communicator'] })
    expectProblem(await text(needId, { body: 'Hello' }, agent), 404, 'Not found')
    expect(await interactions(needId)).toEqual([])
  })
})
