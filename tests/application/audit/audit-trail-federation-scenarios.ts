import { DispatchOutbox } from '../../../src/application/messaging/dispatch-outbox'
import type { World } from '../../support/world'
import { byAdmin, type Expected, u, world } from './audit-trail-support'

// The audited use cases of pairings with referral partners and of referrals (docs/referrals.md), as
// audit-trail-scenarios.ts lists the others: the peer is another organization on this instance, reached
// through the loopback transport.

/** The organization paired with the world's, and each side's id of the pairing. */
async function aPairing(): Promise<{ peer: World; ours: string; theirs: string }> {
  const peer = await world.otherOrganization()
  const { code } = await peer.useCases.federation.createInvitation.execute(peer.admin)
  const ours = (await u().federation.pair.execute(world.admin, { code })).id
  const [theirs] = await peer.repositories.referralPartners.listActive(peer.organizationId)
  return { peer, ours, theirs: theirs!.id }
}

const DAY = 24 * 60 * 60 * 1000

/** A referral from the world's organization to a peer's service, its need naming a person, received by the peer. */
async function aReferral(): Promise<{ peer: World; id: string }> {
  const { peer, ours } = await aPairing()
  const pantry = await peer.partner({ name: 'Pantry' })
  const serviceId = (await peer.useCases.services.create.execute(peer.admin, { partnerId: pantry.id, name: 'Food pantry' })).id
  const customFields = { firstName: 'Ana', lastName: 'Ruiz', phone: '+15035550101' }
  const need = await u().needs.create.execute(world.admin, { partnerId: world.defaultPartner.id, customFields })
  const now = world.clock.now()
  const consent = { obtainedAt: now, method: 'verbal' as const, expiresAt: new Date(now.getTime() + 30 * DAY), fields: ['firstName'] }
  const { id } = await u().referrals.send.execute(world.admin, need.id, { referralPartnerId: ours, serviceId, consent })
  await delivered()
  return { peer, id }
}

/** Every message the outbox holds, delivered. */
async function delivered(): Promise<void> {
  for (let round = 0; round < 50 && (await world.container.get(DispatchOutbox).runOnce()) > 0; round++);
}

export const FEDERATION_SCENARIOS: Record<string, () => Promise<Expected>> = {
  'federation.pair': async () => byAdmin('create', 'referral_partner', (await aPairing()).ours),
  'federation.acceptPairing': async () => {
    const { peer, theirs } = await aPairing()
    return { organizationId: peer.organizationId, action: 'create', recordType: 'referral_partner', recordId: theirs }
  },
  'federation.end': async () => {
    const { ours } = await aPairing()
    await u().federation.end.execute(world.admin, ours)
    return byAdmin('delete', 'referral_partner', ours)
  },
  'federation.receive': async () => {
    // The end reaches the peer as a message, which ends its side.
    const { peer, ours, theirs } = await aPairing()
    await u().federation.end.execute(world.admin, ours)
    await delivered()
    return { organizationId: peer.organizationId, action: 'delete', recordType: 'referral_partner', recordId: theirs }
  },
  'referrals.send': async () => byAdmin('create', 'referral', (await aReferral()).id),
  'referrals.move': async () => {
    const { peer, id } = await aReferral()
    await peer.useCases.referrals.move.execute(peer.admin, id, 'accept')
    return { organizationId: peer.organizationId, memberId: peer.admin.memberId, action: 'update', recordType: 'referral', recordId: id }
  },
  'referrals.revokeConsent': async () => {
    const { id } = await aReferral()
    await u().referrals.revokeConsent.execute(world.admin, id)
    return byAdmin('update', 'referral', id)
  },
}
