// docs/referrals.md "The channel": Standard Webhooks' asymmetric scheme between instances.

/** A message's timestamp may differ from the receiver's clock by this much, either way; older is refused (401). */
export const MESSAGE_TOLERANCE_MS = 5 * 60 * 1000
/** A message id is remembered this long: past every retry of the outbox, so a late retry is still known. */
export const SEEN_MESSAGE_LIFETIME_MS = 24 * 60 * 60 * 1000
/** The one message type the channel itself sends: the pairing ended at the sender's side. */
export const PAIRING_ENDED = 'pairing.ended'

const SIGNATURE_VERSION = 'v1a'
const MAX_TYPE_LENGTH = 100

/** The body of every message, as signed and sent. `referralId` names the referral it is about, when it is about one. */
export interface FederationEnvelope {
  type: string
  pairingId: string
  referralId?: string
  payload: unknown
}

/** The message's headers as received: `webhook-id`, `webhook-timestamp` (seconds), `webhook-signature`. */
export interface SignedHeaders {
  id: string
  timestamp: string
  signature: string
}

/** What is signed: `id.timestamp.body`, as Standard Webhooks signs. */
export function signedContent(id: string, timestampSeconds: number | string, body: string): string {
  return `${id}.${timestampSeconds}.${body}`
}

/** `v1a,` and the base64 Ed25519 signature. */
export function signatureHeader(signature: string): string {
  return `${SIGNATURE_VERSION},${signature}`
}

/** The `v1a` signatures of a header, which may carry several, space-separated (a key being replaced). */
export function asymmetricSignatures(header: string): string[] {
  return header
    .split(' ')
    .map((part) => part.split(','))
    .filter(([version, value]) => version === SIGNATURE_VERSION && value)
    .map(([, value]) => value as string)
}

/** Whether the timestamp (whole seconds, as sent) is within the tolerance of `now`. */
export function isTimely(timestamp: string, now: Date): boolean {
  if (!/^\d{1,12}$/.test(timestamp)) return false
  return Math.abs(Number(timestamp) * 1000 - now.getTime()) <= MESSAGE_TOLERANCE_MS
}

/** The envelope of a body, or undefined when it is none. */
export function envelopeOf(body: string): FederationEnvelope | undefined {
  let parsed: Partial<FederationEnvelope>
  try {
    parsed = JSON.parse(body)
  } catch {
    return undefined
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined
  const { type, pairingId, referralId, payload } = parsed
  if (typeof type !== 'string' || type === '' || type.length > MAX_TYPE_LENGTH || typeof pairingId !== 'string') return undefined
  if (referralId !== undefined && referralId !== null && typeof referralId !== 'string') return undefined
  return { type, pairingId, ...(typeof referralId === 'string' ? { referralId } : {}), payload: payload ?? null }
}

/** Where an instance takes messages and pairings, below its PUBLIC_BASE_URL (which may have a path of its own). */
export function peerUrl(baseUrl: string, route: 'messages' | 'pairings'): string {
  return `${baseUrl.replace(/\/+$/, '')}/federation/v1/${route}`
}
