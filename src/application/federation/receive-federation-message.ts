import { ConflictError, InvalidError, UnauthorizedError } from '../../domain/errors'
import {
  asymmetricSignatures,
  envelopeOf,
  isTimely,
  PAIRING_ENDED,
  signedContent,
  type SignedHeaders,
} from '../../domain/federation/channel'
import type { Clock } from '../ports/clock'
import type { Repositories } from '../ports/repositories'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { FederationHandlers } from './federation-handlers'
import type { OrganizationKeys } from './organization-keys'

const NOT_SIGNED = 'The message is not signed by a partner of this instance'
const UNTIMELY = "The message's timestamp is more than 5 minutes from this instance's clock"

/**
 * A message from a partner's instance (`POST /federation/v1/messages`, docs/referrals.md "The channel"): signed
 * by the key of the pairing it names, timely, and new. A message id seen on the pairing within 24 hours is
 * answered as taken and changes nothing; a new one is recorded in the transaction of what its handler does.
 * Answers the handler's answer (a request's), or an empty object.
 */
export class ReceiveFederationMessage {
  constructor(
    private readonly repositories: Repositories,
    private readonly unitOfWork: UnitOfWork,
    private readonly keys: OrganizationKeys,
    private readonly handlers: FederationHandlers,
    private readonly clock: Clock,
  ) {}

  async execute(headers: Partial<SignedHeaders>, body: string): Promise<unknown> {
    const { id, timestamp, signature } = headers
    const envelope = envelopeOf(body)
    if (!id || !timestamp || !signature || !envelope) throw new UnauthorizedError(NOT_SIGNED)
    if (!isTimely(timestamp, this.clock.now())) throw new UnauthorizedError(UNTIMELY)
    const partner = await this.repositories.referralPartners.findForMessage(envelope.pairingId)
    const content = signedContent(id, timestamp, body)
    if (!partner || !asymmetricSignatures(signature).some((s) => this.keys.verify(partner.peerPublicKey, content, s)))
      throw new UnauthorizedError(NOT_SIGNED)
    if (partner.status !== 'active' && envelope.type !== PAIRING_ENDED) throw new ConflictError('The pairing has ended')
    const handler = this.handlers.of(envelope.type)
    if (!handler) throw InvalidError.field('/type', 'is no message type this instance takes')
    return this.unitOfWork.run(async (r) => {
      if (!(await r.federation.rememberMessage(partner.id, id, this.clock.now()))) return {}
      return (await handler.handle(r, partner, { ...envelope, id })) ?? {}
    })
  }
}
