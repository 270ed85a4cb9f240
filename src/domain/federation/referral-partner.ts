import type { FieldError } from '../errors'
import { FieldChecks, HTTP_URL, NAME, type TextRule } from '../shared/fields'

// docs/referrals.md: an organization paired with another, on this instance or another.

export type PairingStatus = 'active' | 'ended'

/**
 * One side of a pairing. Each side keeps its own record under its own id; a message names the receiver's
 * (`pairingId`), so each side keeps the other's id too.
 */
export interface ReferralPartner {
  id: string
  organizationId: string
  /** The peer organization's name, as its instance gave it when pairing. */
  name: string
  /** The peer instance's PUBLIC_BASE_URL: its messages go to `/federation/v1/messages` there. */
  baseUrl: string
  peerOrganizationId: string
  /** The peer's record of this pairing, named in every message sent to it. */
  peerPairingId: string
  /** The peer organization's Ed25519 public key, raw, base64: every message from it is verified with it. */
  peerPublicKey: string
  /** `ended` once either side ended it: it is no longer listed and carries nothing but the word that it ended. */
  status: PairingStatus
  createdAt: Date
  endedAt?: Date
}

/** An organization's own Ed25519 key pair, which signs what it sends. */
export interface FederationKey {
  organizationId: string
  /** Raw, base64. */
  publicKey: string
  /** PKCS #8, sealed with AES-256-GCM under DATA_ENCRYPTION_KEY. */
  sealedPrivateKey: string
  createdAt: Date
}

/** An invitation to pair, redeemed once with the secret of its code; only the secret's digest is kept. */
export interface PairingInvitation {
  id: string
  organizationId: string
  secretDigest: string
  expiresAt: Date
  createdAt: Date
}

/** What the redeeming instance sends to pair (`POST /federation/v1/pairings`), all text. */
export interface PairingRequest {
  /** The code's secret. */
  secret: string
  /** The redeemer's record of the pairing. */
  pairingId: string
  organizationId: string
  name: string
  baseUrl: string
  publicKey: string
}

export const PAIRING_ID = { minLength: 1, maxLength: 100 } as const satisfies TextRule
/** 32 bytes in base64. */
export const PUBLIC_KEY = { pattern: '^[A-Za-z0-9+/]{43}=$', maxLength: 44 } as const satisfies TextRule

/** The problems of a pairing request. */
export function pairingRequestErrors(input: Partial<Record<keyof PairingRequest, unknown>>): FieldError[] {
  return new FieldChecks()
    .text('/secret', input.secret, PAIRING_ID)
    .text('/pairingId', input.pairingId, PAIRING_ID)
    .text('/organizationId', input.organizationId, PAIRING_ID)
    .text('/name', input.name, NAME)
    .text('/baseUrl', input.baseUrl, HTTP_URL, { meaning: 'an http(s) URL' })
    .text('/publicKey', input.publicKey, PUBLIC_KEY, { meaning: 'a raw Ed25519 public key in base64' }).errors
}
