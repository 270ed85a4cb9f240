import { t } from 'elysia'
import type { ReferralPartnerView } from '../../application/federation/referral-partners'
import { PAIRING_ID, PUBLIC_KEY } from '../../domain/federation/referral-partner'
import { HTTP_URL, NAME } from '../../domain/shared/fields'
import { Body, DateTime, Named, OneOf, Uuid } from './common.schemas'

// docs/referrals.md

/** A code carries an address, two ids, a fingerprint and a secret: well under this. */
const CODE_LENGTH = 4000

export const ReferralPartnerSchema = Named(
  'ReferralPartner',
  t.Object(
    {
      id: Uuid,
      name: t.String({ maxLength: NAME.maxLength, description: "The partner organization's name, as its instance gave it" }),
      baseUrl: t.String({ maxLength: HTTP_URL.maxLength, description: "The partner's instance (its PUBLIC_BASE_URL)" }),
      status: OneOf(['active', 'ended'] as const),
      createdAt: DateTime,
    },
    { description: 'An organization paired with this one, on this instance or another' },
  ),
)

export const referralPartnerView = (partner: ReferralPartnerView) => ({ ...partner, createdAt: partner.createdAt.toISOString() })

export const PairingInvitationSchema = Named(
  'PairingInvitation',
  t.Object({
    code: t.String({ maxLength: CODE_LENGTH, description: "Handed to the other organization's admin, who redeems it once" }),
    expiresAt: DateTime,
  }),
)

export const PairBody = Body({
  code: t.String({ minLength: 1, maxLength: CODE_LENGTH, description: 'A pairing code from the other organization' }),
})

const Id = t.String({ ...PAIRING_ID })
const PublicKey = t.String({ ...PUBLIC_KEY, description: 'A raw Ed25519 public key, base64' })

export const PairingRequestBody = Body({
  secret: t.String({ ...PAIRING_ID, description: "The code's secret" }),
  pairingId: Id,
  organizationId: Id,
  name: t.String({ ...NAME }),
  baseUrl: t.String({ ...HTTP_URL, description: "The redeeming instance's PUBLIC_BASE_URL" }),
  publicKey: PublicKey,
})

export const PairingAnswerSchema = Named(
  'PairingAnswer',
  t.Object({ pairingId: Id, organizationId: Id, name: t.String({ maxLength: NAME.maxLength }), publicKey: PublicKey }),
)

export const FederationMessageBody = Body(
  {
    type: t.String({ minLength: 1, maxLength: 100 }),
    pairingId: Id,
    referralId: t.Optional(t.Union([Id, t.Null()])),
    payload: t.Unknown(),
  },
  'Signed as received: Standard Webhooks headers, `v1a` (Ed25519)',
)

// Optional here: a message without them is 401 (no signature), after its body was checked as every body is.
export const SignedHeaders = t.Object({
  'webhook-id': t.Optional(t.String({ maxLength: 200 })),
  'webhook-timestamp': t.Optional(t.String({ maxLength: 20 })),
  'webhook-signature': t.Optional(t.String({ maxLength: 2000 })),
})
