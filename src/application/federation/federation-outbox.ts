import type { FederationEnvelope } from '../../domain/federation/channel'
import type { ReferralPartner } from '../../domain/federation/referral-partner'
import type { Outbox } from '../messaging/outbox'
import type { Repositories } from '../ports/repositories'

/** A message to a partner: its type, the referral it is about (if any), and its payload (JSON). */
export interface OutgoingMessage {
  type: string
  referralId?: string
  payload: unknown
}

/**
 * The channel's one-way messages (docs/referrals.md "Retries"): put in the outbox inside the caller's transaction, and
 * tried by the dispatcher through `FederationChannel.deliver`. Apart from the channel, so that a message type's handler may
 * send (answer a referral) without needing the channel that calls it.
 */
export class FederationOutbox {
  constructor(private readonly outbox: Outbox) {}

  /** Answers the message's id (its `webhook-id`). */
  send(r: Repositories, partner: ReferralPartner, message: OutgoingMessage): Promise<string> {
    return this.outbox.federation(r, partner.organizationId, {
      partnerId: partner.id,
      type: message.type,
      ...(message.referralId ? { referralId: message.referralId } : {}),
      body: envelopeBody(partner, message),
    })
  }
}

/** The envelope as signed and sent: it names the partner's own record of the pairing. */
export function envelopeBody(partner: ReferralPartner, message: OutgoingMessage): string {
  const envelope: FederationEnvelope = {
    type: message.type,
    pairingId: partner.peerPairingId,
    ...(message.referralId ? { referralId: message.referralId } : {}),
    payload: message.payload ?? null,
  }
  return JSON.stringify(envelope)
}
