import type { FederationEnvelope } from '../../domain/federation/channel'
import type { ReferralPartner } from '../../domain/federation/referral-partner'
import type { Repositories } from '../ports/repositories'

/** A message as received: its envelope and its `webhook-id`. */
export type ReceivedMessage = FederationEnvelope & { id: string }

/** A message this instance sent that ran out of tries: its outbox id, type and referral. */
export interface UndeliveredMessage {
  id: string
  organizationId: string
  partnerId: string
  type: string
  referralId?: string
}

/**
 * What one type of message does at its receiver (docs/referrals.md "Message types"). `handle` runs in the
 * transaction that records the message's id, so a failure leaves the id unseen and a retry tries again; what it
 * answers is the body of the answer (a request's answer; a one-way message answers nothing). `undelivered`, when
 * given, runs at the sender in the transaction that fails a message of this type for good.
 */
export interface FederationHandler {
  handle(r: Repositories, partner: ReferralPartner, message: ReceivedMessage): Promise<unknown>
  undelivered?(r: Repositories, message: UndeliveredMessage): Promise<void>
}

/** The message types this instance takes, each with its handler: a feature adds its types as it is composed. */
export class FederationHandlers {
  private readonly handlers = new Map<string, FederationHandler>()

  register(type: string, handler: FederationHandler): this {
    if (this.handlers.has(type)) throw new Error(`a federation handler for ${type} is registered already`)
    this.handlers.set(type, handler)
    return this
  }

  of(type: string): FederationHandler | undefined {
    return this.handlers.get(type)
  }
}
