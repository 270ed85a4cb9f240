/** Password hashing (argon2id in production). */
export interface PasswordHasher {
  hash(password: string): Promise<string>
  verify(password: string, hash: string): Promise<boolean>
}

export interface AccessTokenClaims {
  memberId: string
  organizationId: string
  /** The session (refresh-token family) the token was issued in: it stops working when the session ends. */
  sessionId: string
}

/** Why a token was refused: `expired` only for a genuine token whose time is up, `invalid` for the rest. */
export type AccessTokenFailure = 'expired' | 'invalid'

/** Short-lived signed access tokens (docs/api.md "Tokens"). */
export interface AccessTokens {
  readonly lifetimeSeconds: number
  issue(claims: AccessTokenClaims): string
  /** The claims of a well-formed, correctly signed, unexpired token; why not otherwise. */
  verify(token: string): AccessTokenClaims | AccessTokenFailure
}

/** Where a key stands in its window after a hit. */
export interface RateLimitUse {
  /** Hits left in the window; 0 once the limit is reached. */
  remaining: number
  /** Seconds until the window ends and the whole quota is back (at least 1). */
  resetSeconds: number
  /** Whether this hit was over the limit (and must be refused). */
  exceeded: boolean
}

/** Fixed-window counters for anonymous endpoints: `limit` hits per `windowSeconds` for each key. */
export interface RateLimiter {
  readonly limit: number
  readonly windowSeconds: number
  /** Counts one hit for `key`. */
  hit(key: string): RateLimitUse
}

/** Opaque secrets handed to clients (refresh and invitation tokens) and stored only as hashes. */
export interface SecretTokens {
  generate(): string
  /** A deterministic, non-reversible digest to store and look the secret up by. */
  digest(secret: string): string
}
