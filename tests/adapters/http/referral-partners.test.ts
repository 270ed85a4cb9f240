import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { FederationChannel } from '../../../src/application/federation/federation-channel'
import { FederationHandlers } from '../../../src/application/federation/federation-handlers'
import { OrganizationKeys } from '../../../src/application/federation/organization-keys'
import { DispatchOutbox } from '../../../src/application/messaging/dispatch-outbox'
import { encodePairingCode } from '../../../src/domain/federation/pairing-code'
import type { ReferralPartner } from '../../../src/domain/federation/referral-partner'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { freePort, pairingCode, twoOrganizations } from './federation-support'

// docs/referrals.md over real HTTP: two organizations of one server pair through its own PUBLIC_BASE_URL, as
// two instances would, and sign their messages to each other.
type Partner = { id: string; name: string; baseUrl: string; status: string; createdAt: string }

const PARTNERS = '/api/referral-partners'

let api: TestServer
let staffToken: string
/** What the test handler was told: how many messages it took. */
let counted = 0

beforeAll(async () => {
  const port = freePort()
  // The test drives the outbox: the server's own worker would hold a message it claimed while the test goes on.
  api = await startTestServer({ PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, SERVE_RUNS_WORKER: 'false' })
  staffToken = await api.tokenFor(api.world, 'staff')
  // A message type of the test's own, as a feature registers its types.
  api.server.container.get(FederationHandlers).register('test.count', {
    handle: async () => ({ count: ++counted }),
  })
})
afterAll(async () => {
  await api.stop()
})

type Organizations = Awaited<ReturnType<typeof twoOrganizations>>

const invitationCode = (token: string) => pairingCode(api, token)

async function listed(token: string): Promise<Partner[]> {
  return (await api.call<{ items: Partner[] }>('GET', PARTNERS, { token })).body.items
}

/** Two new organizations paired: the inviting one's code redeemed by the other; the redeeming side's record of it. */
async function pair(): Promise<Organizations & { redeemed: Partner; pairing: ReferralPartner }> {
  const organizations = await twoOrganizations(api)
  const code = await invitationCode(organizations.invitingToken)
  const redeemed = await api.call<Partner>('POST', PARTNERS, { token: organizations.redeemingToken, body: { code } })
  expect({ status: redeemed.status, body: redeemed.body }).toMatchObject({
    status: 201,
    body: { status: 'active', baseUrl: api.config.publicBaseUrl },
  })
  const { redeeming } = organizations
  const pairing = await redeeming.repositories.referralPartners.findById(redeeming.organizationId, redeemed.body.id)
  return { ...organizations, redeemed: redeemed.body, pairing: pairing as ReferralPartner }
}

/** A message signed with the redeeming organization's key, as its instance would send it to the inviting one. */
async function signedMessage(from: World, pairing: ReferralPartner, options: { id?: string; ageSeconds?: number; tamper?: boolean } = {}) {
  const keys = api.server.container.get(OrganizationKeys)
  const key = await keys.of(from.repositories, from.organizationId)
  const id = options.id ?? randomUUID()
  const timestamp = Math.floor(api.world.clock.now().getTime() / 1000) - (options.ageSeconds ?? 0)
  const body = JSON.stringify({ type: 'test.count', pairingId: pairing.peerPairingId, payload: {} })
  const signature = keys.sign(key, `${id}.${timestamp}.${options.tamper ? body.replace('{}', '{"x":1}') : body}`)
  return api.call('POST', '/federation/v1/messages', {
    raw: body,
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': `v1a,${signature}`,
    },
  })
}

describe('pairing', () => {
  test("two organizations pair through the instance's own address and each lists the other", async () => {
    const { redeemed, pairing, inviting, redeeming, invitingToken, redeemingToken } = await pair()
    const invitingName = (await inviting.repositories.organizations.findById(inviting.organizationId))?.name
    const redeemingName = (await redeeming.repositories.organizations.findById(redeeming.organizationId))?.name
    expect(redeemed.name).toBe(invitingName as string)
    expect(await listed(redeemingToken)).toEqual([redeemed])
    expect(await listed(invitingToken)).toEqual([
      {
        id: pairing.peerPairingId,
        name: redeemingName as string,
        baseUrl: api.config.publicBaseUrl,
        status: 'active',
        createdAt: redeemed.createdAt,
      },
    ])
  })

  test('a code is used once, and an organization pairs with another once', async () => {
    const { invitingToken, redeemingToken } = await twoOrganizations(api)
    const code = await invitationCode(invitingToken)
    expect((await api.call('POST', PARTNERS, { token: redeemingToken, body: { code } })).status).toBe(201)
    expect((await api.call('POST', PARTNERS, { token: redeemingToken, body: { code } })).status).toBe(409)
    const third = await twoOrganizations(api)
    expect((await api.call('POST', PARTNERS, { token: third.redeemingToken, body: { code } })).status).toBe(400)
  })

  test('an unreachable instance is 502; a staff member may not pair', async () => {
    const { redeemingToken } = await twoOrganizations(api)
    const code = encodePairingCode({
      baseUrl: `http://127.0.0.1:${freePort()}`,
      organizationId: randomUUID(),
      fingerprint: 'unused',
      secret: 'unused',
      expiresAt: new Date(api.world.clock.now().getTime() + 60_000),
    })
    expect((await api.call('POST', PARTNERS, { token: redeemingToken, body: { code } })).status).toBe(502)
    expect(await listed(redeemingToken)).toEqual([])
    expect((await api.call('POST', `${PARTNERS}/invitations`, { token: staffToken })).status).toBe(403)
  })
})

describe('signed messages', () => {
  test('a signed message is taken once; the same id again is answered and changes nothing', async () => {
    const { pairing, redeeming } = await pair()
    const id = randomUUID()
    const first = await signedMessage(redeeming, pairing, { id })
    expect({ status: first.status, body: first.body }).toEqual({ status: 200, body: { count: counted } })
    const before = counted
    const replay = await signedMessage(redeeming, pairing, { id })
    expect({ status: replay.status, body: replay.body }).toEqual({ status: 200, body: {} })
    expect(counted).toBe(before)
  })

  test('a tampered signature, another key and a timestamp older than 5 minutes are 401', async () => {
    const { pairing, redeeming, inviting } = await pair()
    const before = counted
    expect((await signedMessage(redeeming, pairing, { tamper: true })).status).toBe(401)
    expect((await signedMessage(inviting, pairing)).status).toBe(401)
    expect((await signedMessage(redeeming, pairing, { ageSeconds: 301 })).status).toBe(401)
    expect(counted).toBe(before)
    expect((await signedMessage(redeeming, pairing, { ageSeconds: 299 })).status).toBe(200)
  })

  test('a request over the signed channel is answered by the partner at once', async () => {
    const { redeemed, redeeming } = await pair()
    const channel = api.server.container.get(FederationChannel)
    const answer = await channel.request(redeeming.organizationId, redeemed.id, { type: 'test.count', payload: {} })
    expect(answer).toEqual({ count: counted })
  })

  test('ending a pairing ends it on both sides, the other through the outbox', async () => {
    const { redeemed, pairing, redeeming, redeemingToken, invitingToken } = await pair()
    expect((await api.call('DELETE', `${PARTNERS}/${redeemed.id}`, { token: redeemingToken })).status).toBe(204)
    expect(await listed(redeemingToken)).toEqual([])
    expect(await listed(invitingToken)).toHaveLength(1)
    await api.server.container.get(DispatchOutbox).runOnce()
    expect(await listed(invitingToken)).toEqual([])
    expect((await signedMessage(redeeming, pairing)).status).toBe(409)
    expect((await api.call('DELETE', `${PARTNERS}/${redeemed.id}`, { token: redeemingToken })).status).toBe(404)
  })
})
