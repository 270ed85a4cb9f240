import { NotFoundError } from '../../domain/errors'
import { PAIRING_ENDED, peerUrl, signatureHeader, signedContent } from '../../domain/federation/channel'
import type { ReferralPartner } from '../../domain/federation/referral-partner'
import type { FederationMessage } from '../../domain/messaging/outbox'
import type { Clock } from '../ports/clock'
import type { FederationTransport, PeerAnswer } from '../ports/federation'
import type { IdGenerator } from '../ports/ids'
import { ProviderError } from '../ports/provider-error'
import type { Repositories } from '../ports/repositories'
import { WebhookRefused } from '../webhooks/webhook-delivery'
import type { FederationHandlers } from './federation-handlers'
import { envelopeBody, type FederationOutbox, type OutgoingMessage } from './federation-outbox'
import type { OrganizationKeys } from './organization-keys'

const FAILED = 'Partner instance failed' as const
const PEER = "the partner's instance"

/**
 * The signed channel to referral partners' instances (docs/referrals.md "The channel"): a message through the
 * outbox (`send`, retried for hours, each try signed anew with the same `webhook-id`), or a request answered at
 * once (`request`). Every message is posted to the partner's `/federation/v1/messages`, under the webhook
 * destination rules, even when the partner is on this instance.
 */
export class FederationChannel {
  constructor(
    private readonly repositories: Repositories,
    private readonly keys: OrganizationKeys,
    private readonly transport: FederationTransport,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly outbox: FederationOutbox,
    private readonly handlers: FederationHandlers,
  ) {}

  /** Puts a message to the partner in the outbox, inside the caller's transaction; answers its id (its `webhook-id`). */
  send(r: Repositories, partner: ReferralPartner, message: OutgoingMessage): Promise<string> {
    return this.outbox.send(r, partner, message)
  }

  /**
   * A request the partner answers at once (a question, such as its services): its answer's JSON. Not retried: the
   * caller is waiting. An unreachable partner or an answer other than 200 is ProviderError (502).
   */
  async request(organizationId: string, partnerId: string, message: OutgoingMessage): Promise<unknown> {
    const partner = await this.repositories.referralPartners.findById(organizationId, partnerId)
    if (partner?.status !== 'active') throw new NotFoundError('Referral partner')
    const answer = await this.post(partner, this.ids.nextInTimeOrder(), envelopeBody(partner, message))
    if (answer.status !== 200) throw new ProviderError(FAILED, `${PEER} answered ${answer.status}`, answer.status >= 500)
    try {
      return JSON.parse(answer.body)
    } catch {
      throw new ProviderError(FAILED, `${PEER} answered something other than JSON`, false)
    }
  }

  /** One try of an outbox message, for the dispatcher: the 2xx status, or ProviderError. A pairing never is disabled. */
  async deliver(organizationId: string, messageId: string, message: FederationMessage): Promise<number> {
    const partner = await this.repositories.referralPartners.findById(organizationId, message.partnerId)
    if (!partner) throw new ProviderError(FAILED, 'the pairing is gone', false)
    // Once ended, a pairing carries only the word that it ended.
    if (partner.status !== 'active' && message.type !== PAIRING_ENDED) throw new ProviderError(FAILED, 'the pairing has ended', false)
    const { status } = await this.post(partner, messageId, message.body)
    if (status < 200 || status > 299) throw new WebhookRefused(status, FAILED, PEER)
    return status
  }

  /** A message ran out of tries: its type's handler hears it (a referral shows "not delivered"), in the dispatcher's transaction. */
  async undelivered(r: Repositories, organizationId: string, messageId: string, message: FederationMessage): Promise<void> {
    const { partnerId, type, referralId } = message
    await this.handlers
      .of(type)
      ?.undelivered?.(r, { id: messageId, organizationId, partnerId, type, ...(referralId ? { referralId } : {}) })
  }

  private async post(partner: ReferralPartner, id: string, body: string): Promise<PeerAnswer> {
    const key = await this.keys.of(this.repositories, partner.organizationId)
    const timestamp = Math.floor(this.clock.now().getTime() / 1000)
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(this.keys.sign(key, signedContent(id, timestamp, body))),
    }
    return this.transport.post(peerUrl(partner.baseUrl, 'messages'), headers, body)
  }
}
