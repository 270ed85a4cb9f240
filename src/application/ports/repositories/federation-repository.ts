import type { FederationKey, PairingInvitation } from '../../../domain/federation/referral-partner'

/** What the channel between instances keeps (docs/referrals.md): each organization's key, invitations, message ids seen. */
export interface FederationRepository {
  findKey(organizationId: string): Promise<FederationKey | undefined>
  /** Keeps the first key of an organization: a second one, made at the same time, changes nothing. */
  insertKey(key: FederationKey): Promise<void>
  insertInvitation(invitation: PairingInvitation): Promise<void>
  /** Removes and answers the invitation of this secret digest; an expired one (`expiresAt` at `now` or before) is answered undefined. */
  takeInvitation(secretDigest: string, now: Date): Promise<PairingInvitation | undefined>
  /** Records a message id received on a pairing; false, changing nothing, when it was seen already. */
  rememberMessage(pairingId: string, messageId: string, at: Date): Promise<boolean>
  /** Removes up to `limit` message ids seen at `seenBy` or before and invitations expired by then; answers how many went. */
  purge(seenBy: Date, limit: number): Promise<number>
}
