// docs/referrals.md "Pairing": what an invitation's code carries, as base64url of a small JSON.

/** An invitation's code is good this long, and once. */
export const PAIRING_CODE_LIFETIME_MS = 24 * 60 * 60 * 1000

export interface PairingCode {
  /** The inviting instance's PUBLIC_BASE_URL, where the code is redeemed. */
  baseUrl: string
  /** The inviting organization's id. */
  organizationId: string
  /** SHA-256 of the inviting organization's raw Ed25519 public key, base64url: the key its instance answers must match it. */
  fingerprint: string
  /** Proves the redeemer was handed the code; the inviting side keeps only its digest. */
  secret: string
  expiresAt: Date
}

interface WireCode {
  u: string
  o: string
  f: string
  s: string
  /** Seconds since the epoch. */
  e: number
}

export function encodePairingCode(code: PairingCode): string {
  const wire: WireCode = {
    u: code.baseUrl,
    o: code.organizationId,
    f: code.fingerprint,
    s: code.secret,
    e: Math.floor(code.expiresAt.getTime() / 1000),
  }
  return Buffer.from(JSON.stringify(wire)).toString('base64url')
}

/** The code's fields, or undefined when the text is no code this service made. */
export function decodePairingCode(text: string): PairingCode | undefined {
  let wire: Partial<WireCode>
  try {
    wire = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
  } catch {
    return undefined
  }
  if (typeof wire !== 'object' || wire === null) return undefined
  const { u, o, f, s, e } = wire
  if (![u, o, f, s].every((field) => typeof field === 'string' && field !== '') || typeof e !== 'number') return undefined
  if (!URL.canParse(u as string) || !/^https?:$/.test(new URL(u as string).protocol)) return undefined
  return { baseUrl: u as string, organizationId: o as string, fingerprint: f as string, secret: s as string, expiresAt: new Date(e * 1000) }
}
