import { DispatchOutbox } from '../../../src/application/messaging/dispatch-outbox'
import type { World } from '../../support/world'
import { byAdmin, type Expected, u, world } from './audit-trail-support'

// The audited use cases of pairings with referral partners (docs/referrals.md), as audit-trail-scenarios.ts lists
// the others: the peer is another organization on this instance, reached through the loopback transport.

/** The organization paired with the world's, and each side's id of the pairing. */
async function aPairing(): Promise<{ peer: World; ours: string; theirs: string }> {
  const peer = await world.otherOrganization()
  const { code } = await peer.useCases.federation.createInvitation.execute(peer.admin)
  const ours = (await u().federation.pair.execute(world.admin, { code })).id
  const [theirs] = await peer.repositories.referralPartners.listActive(peer.organizationId)
  return { peer, ours, theirs: theirs!.id }
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
    for (let round = 0; round < 50 && (await world.container.get(DispatchOutbox).runOnce()) > 0; round++);
    return { organizationId: peer.organizationId, action: 'delete', recordType: 'referral_partner', recordId: theirs }
  },
}
