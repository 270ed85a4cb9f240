import { beforeEach, describe, expect, test } from 'bun:test'
import { FederationChannel } from '../../../src/application/federation/federation-channel'
import { FederationHandlers, type UndeliveredMessage } from '../../../src/application/federation/federation-handlers'
import { DispatchOutbox } from '../../../src/application/messaging/dispatch-outbox'
import { ProviderError } from '../../../src/application/ports/provider-error'
import type { InvalidError } from '../../../src/domain/errors'
import { createContainer, PORTS } from '../../../src/main/container'
import { FixedClock } from '../../support/fixed-clock'
import { cheapPasswords, createWorld, testConfig, type World } from '../../support/world'
import { failureOf } from '../webhooks/webhooks-support'
import { LoopbackTransport } from './loopback-transport'

// docs/referrals.md through the use cases on the in-memory adapters; the partner's instance is this one,
// reached by a transport that hands each post to the use case its route would call.

let inviting: World
let redeeming: World
let transport: LoopbackTransport
let clock: FixedClock

beforeEach(async () => {
  clock = new FixedClock()
  const config = testConfig()
  const container = createContainer(config, { clock, passwords: cheapPasswords() })
  transport = new LoopbackTransport(() => inviting.useCases.federation)
  container.rebind(PORTS.federationTransport).toConstantValue(transport)
  inviting = await createWorld(config, container, clock)
  redeeming = await inviting.otherOrganization()
})

async function pair() {
  const { code } = await inviting.useCases.federation.createInvitation.execute(inviting.admin)
  return redeeming.useCases.federation.pair.execute(redeeming.admin, { code })
}

describe('pairing', () => {
  test('each side keeps the other, and each organization its own key, the private one sealed', async () => {
    const redeemed = await pair()
    const [invited] = await inviting.repositories.referralPartners.listActive(inviting.organizationId)
    const mine = await redeeming.repositories.referralPartners.findById(redeeming.organizationId, redeemed.id)
    expect(invited?.peerPairingId).toBe(redeemed.id)
    expect(mine?.peerPairingId).toBe(invited?.id as string)
    const key = await inviting.repositories.federation.findKey(inviting.organizationId)
    expect(mine?.peerPublicKey).toBe(key?.publicKey as string)
    const privateKey = inviting.container.get(PORTS.secretBox).open(key?.sealedPrivateKey as string)
    expect(key?.sealedPrivateKey).not.toContain(privateKey)
  })

  test('a key that is not the one the code names fails the pairing on the redeeming side', async () => {
    transport.otherKey = true
    expect(await failureOf(pair())).toBeInstanceOf(ProviderError)
    expect(await redeeming.repositories.referralPartners.listActive(redeeming.organizationId)).toEqual([])
  })

  test('a code past its 24 hours is refused at /code; only an org_admin makes one', async () => {
    const { code } = await inviting.useCases.federation.createInvitation.execute(inviting.admin)
    clock.advance(24 * 60 * 60 * 1000)
    const refused = await failureOf(redeeming.useCases.federation.pair.execute(redeeming.admin, { code }))
    expect((refused as InvalidError).errors).toEqual([{ path: '/code', message: 'is not a pairing code, or has expired' }])
    const staff = await inviting.member('staff')
    expect((await failureOf(inviting.useCases.federation.createInvitation.execute(staff))) as { kind: string }).toMatchObject({
      kind: 'forbidden',
    })
  })
})

describe('messages through the outbox', () => {
  test('a message that ran out of tries is told to its handler; the pairing stays active', async () => {
    const undelivered: UndeliveredMessage[] = []
    inviting.container
      .get(FederationHandlers)
      .register('test.note', { handle: async () => ({}), undelivered: async (_r, m) => void undelivered.push(m) })
    const redeemed = await pair()
    const partner = await redeeming.repositories.referralPartners.findById(redeeming.organizationId, redeemed.id)
    const channel = inviting.container.get(FederationChannel)
    const id = await redeeming.container
      .get(PORTS.unitOfWork)
      .run((r) => channel.send(r, partner!, { type: 'test.note', referralId: 'ref-1', payload: {} }))
    transport.down = true
    const dispatch = inviting.container.get(DispatchOutbox)
    for (let attempt = 0; attempt < 8; attempt++) {
      await dispatch.runOnce()
      clock.advance(7 * 60 * 60 * 1000)
    }
    expect((await redeeming.repositories.outbox.findById(id))?.status).toBe('failed')
    expect(undelivered).toEqual([
      { id, organizationId: redeeming.organizationId, partnerId: redeemed.id, type: 'test.note', referralId: 'ref-1' },
    ])
    expect((await redeeming.repositories.referralPartners.findById(redeeming.organizationId, redeemed.id))?.status).toBe('active')
  })
})
