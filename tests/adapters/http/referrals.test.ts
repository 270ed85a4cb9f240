import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { FederationOutbox } from '../../../src/application/federation/federation-outbox'
import { OrganizationKeys } from '../../../src/application/federation/organization-keys'
import { DispatchOutbox } from '../../../src/application/messaging/dispatch-outbox'
import type { FederationMessage } from '../../../src/domain/messaging/outbox'
import { startTestServer, type TestServer } from '../../support/http'
import { freePort, pairingCode, twoOrganizations } from './federation-support'

// docs/referrals.md "Referrals" over real HTTP: two organizations of one server, paired through its own PUBLIC_BASE_URL,
// refer a need from one to the other; the outbox is driven by hand.
type Referral = {
  id: string
  direction: string
  status: string
  needId: string
  outcome?: string
  consentRevokedAt?: string
  history: Array<{ status: string; by: { organization: string } }>
}
type Need = { id: string; customFields: Record<string, unknown>; constituentId?: string }

let api: TestServer

beforeAll(async () => {
  const port = freePort()
  // The test drives the outbox: the server's own worker would hold a message it claimed while the test goes on.
  api = await startTestServer({ PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, SERVE_RUNS_WORKER: 'false' })
})
afterAll(async () => {
  await api.stop()
})

/** Runs the outbox until nothing is due: each organization has only so many messages in flight at once. */
async function dispatch() {
  while ((await api.server.container.get(DispatchOutbox).runOnce()) > 0) {}
}

function consent(fields: string[], expiresAt = new Date(api.world.clock.now().getTime() + 30 * 24 * 60 * 60 * 1000)) {
  return { obtainedAt: api.world.clock.now().toISOString(), method: 'written', expiresAt: expiresAt.toISOString(), fields }
}

/** The sender (the redeeming organization) with a need of a person, the receiver with a service taking referrals. */
async function paired() {
  const { inviting: receiver, redeeming: sender, invitingToken: receiverToken, redeemingToken: senderToken } = await twoOrganizations(api)
  const code = await pairingCode(api, receiverToken)
  const pairing = await api.call<{ id: string }>('POST', '/api/referral-partners', { token: senderToken, body: { code } })
  const pantry = await receiver.partner({ name: 'Pantry' })
  await api.call('POST', '/api/services', {
    token: receiverToken,
    body: { partnerId: pantry.id, name: 'Closed pantry', acceptingReferrals: false },
  })
  const service = await api.call<{ id: string }>('POST', '/api/services', {
    token: receiverToken,
    body: { partnerId: pantry.id, name: 'Food pantry' },
  })
  const customFields = { firstName: 'Ana', lastName: 'Ruiz', phone: '+15035550101', email: 'ana@example.org' }
  const need = await api.call<Need>('POST', '/api/needs', {
    token: senderToken,
    body: { partnerId: sender.defaultPartner.id, customFields },
  })
  const refer = (body: Record<string, unknown>) =>
    api.call<Referral>('POST', `/api/needs/${need.body.id}/referrals`, {
      token: senderToken,
      body: { referralPartnerId: pairing.body.id, serviceId: service.body.id, ...body },
    })
  return { receiver, sender, receiverToken, senderToken, partnerId: pairing.body.id, serviceId: service.body.id, pantry, refer }
}

describe('referrals between two paired organizations', () => {
  test("a partner's services are asked of its instance: only those taking referrals", async () => {
    const { senderToken, partnerId, serviceId } = await paired()
    const services = await api.call<{ items: Array<{ id: string; name: string }> }>('GET', `/api/referral-partners/${partnerId}/services`, {
      token: senderToken,
    })
    expect(services.body.items).toEqual([{ id: serviceId, name: 'Food pantry' }])
  })

  test('a referral without consent, or with consent expired, is 400', async () => {
    const { refer } = await paired()
    expect((await refer({})).status).toBe(400)
    expect((await refer({ consent: consent(['firstName'], api.world.clock.now()) })).status).toBe(400)
    expect((await refer({ consent: consent(['ssn']) })).status).toBe(400)
  })

  test("with consent to name and phone, the receiver's need holds only those; accepted then completed is seen by the sender", async () => {
    const { refer, receiverToken, senderToken, pantry } = await paired()
    const sent = await refer({ consent: consent(['firstName', 'phone']) })
    expect({ status: sent.status, referral: sent.body }).toMatchObject({ status: 201, referral: { status: 'requested', direction: 'out' } })
    await dispatch()
    const incoming = await api.call<Referral[]>('GET', '/api/referrals?direction=in', { token: receiverToken })
    expect(incoming.body).toMatchObject([{ id: sent.body.id, status: 'received', direction: 'in' }])
    const need = await api.call<Need & { partnerId: string }>('GET', `/api/needs/${incoming.body[0]!.needId}`, {
      token: receiverToken,
    })
    expect(need.body.partnerId).toBe(pantry.id)
    expect(need.body.customFields).toEqual({ firstName: 'Ana', phone: '+15035550101' })
    // One move delivered before the next: messages may arrive out of order, and a late one is not taken.
    for (const move of ['accept', 'start']) {
      expect((await api.call('POST', `/api/referrals/${sent.body.id}/${move}`, { token: receiverToken })).status).toBe(200)
      await dispatch()
    }
    const completed = await api.call('POST', `/api/referrals/${sent.body.id}/complete`, {
      token: receiverToken,
      body: { outcome: 'got_help' },
    })
    expect(completed.status).toBe(200)
    await dispatch()
    const seen = await api.call<Referral>('GET', `/api/referrals/${sent.body.id}`, { token: senderToken })
    expect(seen.body).toMatchObject({ direction: 'out', status: 'completed', outcome: 'got_help' })
    expect(seen.body.history.map((m) => m.status)).toEqual(['requested', 'received', 'accepted', 'in-progress', 'completed'])
  })

  test('a message received again, under its own id or another, changes nothing: no second referral', async () => {
    const { refer, sender, receiverToken } = await paired()
    const queued: string[] = []
    const outbox = api.server.container.get(FederationOutbox)
    const send = outbox.send.bind(outbox)
    outbox.send = async (...args) => {
      const id = await send(...args)
      queued.push(id)
      return id
    }
    await refer({ consent: consent(['firstName']) })
    outbox.send = send
    await dispatch()
    const message = await api.world.repositories.outbox.findById(queued[0]!)
    const { body } = (message!.payload as { federation: FederationMessage }).federation
    const keys = api.server.container.get(OrganizationKeys)
    const key = await keys.of(sender.repositories, sender.organizationId)
    for (const id of [message!.id, randomUUID()]) {
      const timestamp = Math.floor(api.world.clock.now().getTime() / 1000)
      const headers = { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(timestamp) }
      const signature = `v1a,${keys.sign(key, `${id}.${timestamp}.${body}`)}`
      const replay = await api.call('POST', '/federation/v1/messages', {
        raw: body,
        headers: { ...headers, 'webhook-signature': signature },
      })
      expect(replay.status).toBe(200)
    }
    expect((await api.call<Referral[]>('GET', '/api/referrals', { token: receiverToken })).body).toHaveLength(1)
    expect((await api.call<unknown[]>('GET', '/api/needs', { token: receiverToken })).body).toHaveLength(1)
  })

  test('revoked consent erases the values the receiver took from the referral', async () => {
    const { refer, receiverToken, senderToken } = await paired()
    const sent = await refer({ consent: consent(['firstName', 'phone']) })
    await dispatch()
    expect((await api.call('POST', `/api/referrals/${sent.body.id}/revoke-consent`, { token: senderToken })).status).toBe(200)
    await dispatch()
    const referral = await api.call<Referral>('GET', `/api/referrals/${sent.body.id}`, { token: receiverToken })
    expect(referral.body.consentRevokedAt).toBeString()
    const need = await api.call<Need>('GET', `/api/needs/${referral.body.needId}`, { token: receiverToken })
    expect(need.body.customFields).toEqual({})
  })
})
