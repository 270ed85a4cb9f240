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

/** Fixed-window counters for anonymous endpoints. */
export interface RateLimiter {
  /** Counts one hit for `key`; answers how long to wait when the limit is exceeded, else 0. */
  hit(key: string): number
}

/** Opaque secrets handed to clients (refresh and invitation tokens) and stored only as hashes. */
export interface SecretTokens {
  generate(): string
  /** A deterministic, non-reversible digest to store and look the secret up by. */
  digest(secret: string): string
}
