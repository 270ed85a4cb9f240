import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto'
import type { Clock } from '../../application/ports/clock'
import type { AccessTokenClaims, AccessTokenFailure, AccessTokens, VerifiedAccessToken } from '../../application/ports/access-tokens'

const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** How many checked tokens are kept: a session brings its token with every request for 15 minutes. */
const CHECKED_KEPT = 4096

/**
 * HS256 JWTs signed and checked with node:crypto's HMAC (docs/api/access.md "Tokens"). The algorithm is pinned: a token
 * whose header says anything but HS256 (`none` included) is refused before its signature is looked at.
 * Plain HMAC costs half of what a general JOSE library does per request (measured by npm run bench).
 * A token whose signature and claims were checked is kept with its claims (the last 4,096), so the next
 * request that brings the very same text skips the HMAC and the parse, about 2.4 µs: only its expiry is
 * looked at again. A changed character is another text, checked in full.
 */
export class HmacAccessTokens implements AccessTokens {
  readonly lifetimeSeconds = 900
  private readonly checked = new Map<string, { claims: VerifiedAccessToken; expiresAtMs: number }>()

  constructor(
    private readonly secret: string,
    private readonly clock: Clock,
  ) {}

  issue(claims: AccessTokenClaims): string {
    const iat = Math.floor(this.clock.now().getTime() / 1000)
    const payload = base64url(
      JSON.stringify({
        sub: claims.memberId,
        org: claims.organizationId,
        sid: claims.sessionId,
        iat,
        exp: iat + this.lifetimeSeconds,
        jti: randomUUID(),
      }),
    )
    return `${HEADER}.${payload}.${this.sign(`${HEADER}.${payload}`)}`
  }

  verify(token: string): VerifiedAccessToken | AccessTokenFailure {
    const known = this.checked.get(token)
    if (known) return known.expiresAtMs <= this.clock.now().getTime() ? 'expired' : known.claims
    const verified = this.check(token)
    if (typeof verified === 'string') return verified
    if (this.checked.size >= CHECKED_KEPT) this.checked.delete(this.checked.keys().next().value!)
    this.checked.set(token, verified)
    return verified.claims
  }

  /** The token's claims and expiry, once its header, signature and claims are what this service signs. */
  private check(token: string): { claims: VerifiedAccessToken; expiresAtMs: number } | AccessTokenFailure {
    const parts = token.split('.')
    if (parts.length !== 3) return 'invalid'
    const [header, payload, signature] = parts as [string, string, string]
    if (header !== HEADER && !isHs256(header)) return 'invalid'
    const expected = Buffer.from(this.sign(`${header}.${payload}`))
    const given = Buffer.from(signature)
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid'
    // Only a token this service signed gets as far as "expired": a forged one cannot claim it.
    const claims = parseJson(payload)
    if (!claims || typeof claims.exp !== 'number' || typeof claims.sub !== 'string' || typeof claims.org !== 'string') return 'invalid'
    if (typeof claims.sid !== 'string' || !UUID.test(claims.sub) || !UUID.test(claims.org) || !UUID.test(claims.sid)) return 'invalid'
    if (claims.exp * 1000 <= this.clock.now().getTime()) return 'expired'
    return {
      claims: Object.freeze({
        memberId: claims.sub,
        organizationId: claims.org,
        sessionId: claims.sid,
        expiresAt: new Date(claims.exp * 1000),
      }),
      expiresAtMs: claims.exp * 1000,
    }
  }

  private sign(input: string): string {
    return createHmac('sha256', this.secret).update(input).digest('base64url')
  }
}

function isHs256(header: string): boolean {
  return parseJson(header)?.alg === 'HS256'
}

function parseJson(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'))
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

function base64url(text: string): string {
  return Buffer.from(text).toString('base64url')
}
