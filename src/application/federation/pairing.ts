import type { Actor } from '../../domain/auth/actor'
import { ConflictError, InvalidError, NotFoundError, UnauthorizedError } from '../../domain/errors'
import { peerUrl } from '../../domain/federation/channel'
import { decodePairingCode, encodePairingCode, PAIRING_CODE_LIFETIME_MS } from '../../domain/federation/pairing-code'
import { pairingRequestErrors, type PairingRequest, type ReferralPartner } from '../../domain/federation/referral-partner'
import type { AuditTrail } from '../audit/audit-trail'
import { authorize } from '../auth/authorize'
import type { Clock } from '../ports/clock'
import type { FederationTransport } from '../ports/federation'
import type { IdGenerator } from '../ports/ids'
import { ProviderError } from '../ports/provider-error'
import type { SecretTokens } from '../ports/secret-tokens'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { OrganizationKeys } from './organization-keys'
import { partnerView, type ReferralPartnerView } from './referral-partners'

const FAILED = 'Partner instance failed' as const
const CODE_REFUSED = 'is not a pairing code, or has expired'

/** What the inviting instance answers a pairing: its side of it. */
export interface PairingAnswer {
  pairingId: string
  organizationId: string
  name: string
  publicKey: string
}

/** `POST /api/referral-partners/invitations`: a code another organization's admin redeems once, within 24 hours. */
export class CreatePairingInvitation {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly keys: OrganizationKeys,
    private readonly secrets: SecretTokens,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly publicBaseUrl: string,
  ) {}

  async execute(actor: Actor): Promise<{ code: string; expiresAt: Date }> {
    authorize(actor, 'referral-partners:manage')
    const secret = this.secrets.generate()
    const now = this.clock.now()
    // Whole seconds, as the code carries it.
    const expiresAt = new Date(Math.floor((now.getTime() + PAIRING_CODE_LIFETIME_MS) / 1000) * 1000)
    const { organizationId } = actor
    const key = await this.unitOfWork.run(async (r) => {
      await r.federation.insertInvitation({
        id: this.ids.next(),
        organizationId,
        secretDigest: this.secrets.digest(secret),
        expiresAt,
        createdAt: now,
      })
      return this.keys.of(r, organizationId)
    })
    const fingerprint = this.keys.fingerprint(key.publicKey)
    return { code: encodePairingCode({ baseUrl: this.publicBaseUrl, organizationId, fingerprint, secret, expiresAt }), expiresAt }
  }
}

/**
 * `POST /api/referral-partners {code}`: redeems another organization's code at its instance (docs/referrals.md
 * "Pairing"), over HTTP even when it is this one. No transaction is open while the other instance is asked.
 */
export class PairWithPartner {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly keys: OrganizationKeys,
    private readonly transport: FederationTransport,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly audit: AuditTrail,
    private readonly publicBaseUrl: string,
  ) {}

  async execute(actor: Actor, input: { code: string }): Promise<ReferralPartnerView> {
    authorize(actor, 'referral-partners:manage')
    const code = decodePairingCode(input.code)
    if (!code || code.expiresAt <= this.clock.now()) throw InvalidError.field('/code', CODE_REFUSED)
    if (code.organizationId === actor.organizationId && code.baseUrl === this.publicBaseUrl)
      throw InvalidError.field('/code', "is this organization's own code")
    await this.transport.check(code.baseUrl, '/code')
    const { key, name } = await this.unitOfWork.run(async (r) => {
      const paired = await r.referralPartners.listActive(actor.organizationId)
      if (paired.some((p) => p.peerOrganizationId === code.organizationId && p.baseUrl === code.baseUrl))
        throw new ConflictError('This organization is paired with that one already')
      const organization = await r.organizations.findById(actor.organizationId)
      if (!organization) throw new NotFoundError('Organization')
      return { key: await this.keys.of(r, actor.organizationId), name: organization.name }
    })
    const request: PairingRequest = {
      secret: code.secret,
      pairingId: this.ids.next(),
      organizationId: actor.organizationId,
      name,
      baseUrl: this.publicBaseUrl,
      publicKey: key.publicKey,
    }
    const answer = await this.redeem(code.baseUrl, request)
    // The code named the key to expect: another one answered is not the organization that invited.
    if (this.keys.fingerprint(answer.publicKey) !== code.fingerprint || answer.organizationId !== code.organizationId)
      throw new ProviderError(FAILED, "the partner's instance answered a key the code does not name", false)
    const partner: ReferralPartner = {
      id: request.pairingId,
      organizationId: actor.organizationId,
      name: answer.name,
      baseUrl: code.baseUrl,
      peerOrganizationId: answer.organizationId,
      peerPairingId: answer.pairingId,
      peerPublicKey: answer.publicKey,
      status: 'active',
      createdAt: this.clock.now(),
    }
    await this.unitOfWork.run(async (r) => {
      await r.referralPartners.insert(partner)
      await this.audit.record(r, actor, { action: 'create', recordType: 'referral_partner', recordId: partner.id })
    })
    return partnerView(partner)
  }

  private async redeem(baseUrl: string, request: PairingRequest): Promise<PairingAnswer> {
    const answer = await this.transport.post(peerUrl(baseUrl, 'pairings'), {}, JSON.stringify(request))
    if (answer.status >= 400 && answer.status < 500)
      throw InvalidError.field('/code', `was refused by the inviting instance (${answer.status}): unknown, used or expired`)
    if (answer.status !== 201) throw new ProviderError(FAILED, `the partner's instance answered ${answer.status}`, true)
    const parsed = parsedAnswer(answer.body)
    if (!parsed) throw new ProviderError(FAILED, "the partner's instance answered no pairing", false)
    return parsed
  }
}

function parsedAnswer(body: string): PairingAnswer | undefined {
  try {
    const { pairingId, organizationId, name, publicKey } = JSON.parse(body) as Partial<PairingAnswer>
    const fields = { pairingId, organizationId, name, publicKey, secret: 'x', baseUrl: 'https://x' }
    return pairingRequestErrors(fields).length === 0 ? ({ pairingId, organizationId, name, publicKey } as PairingAnswer) : undefined
  } catch {
    return undefined
  }
}

/**
 * `POST /federation/v1/pairings`, from the instance of the organization redeeming a code: the code's secret
 * proves it was handed the code, which is then used up. Its address must pass this deployment's rules, as
 * every message to it will.
 */
export class AcceptPairing {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly keys: OrganizationKeys,
    private readonly transport: FederationTransport,
    private readonly secrets: SecretTokens,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly audit: AuditTrail,
  ) {}

  async execute(input: PairingRequest): Promise<PairingAnswer> {
    InvalidError.throwIfAny(pairingRequestErrors(input), 'The pairing request has invalid fields')
    await this.transport.check(input.baseUrl, '/baseUrl')
    const now = this.clock.now()
    return this.unitOfWork.run(async (r) => {
      const invitation = await r.federation.takeInvitation(this.secrets.digest(input.secret), now)
      if (!invitation) throw new UnauthorizedError('The pairing code is unknown, used or expired')
      const { organizationId } = invitation
      const organization = await r.organizations.findById(organizationId)
      if (!organization) throw new UnauthorizedError('The pairing code is unknown, used or expired')
      const key = await this.keys.of(r, organizationId)
      const partner: ReferralPartner = {
        id: this.ids.next(),
        organizationId,
        name: input.name,
        baseUrl: input.baseUrl,
        peerOrganizationId: input.organizationId,
        peerPairingId: input.pairingId,
        peerPublicKey: input.publicKey,
        status: 'active',
        createdAt: now,
      }
      await r.referralPartners.insert(partner)
      await this.audit.record(r, { organizationId }, { action: 'create', recordType: 'referral_partner', recordId: partner.id })
      return { pairingId: partner.id, organizationId, name: organization.name, publicKey: key.publicKey }
    })
  }
}
