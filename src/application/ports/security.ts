/** Password hashing (argon2id in production). */
export interface PasswordHasher {
  hash(password: string): Promise<string>
  verify(password: string, hash: string): Promise<boolean>
}

export interface AccessTokenClaims {
  memberId: string
  organizationId: string
}

/** Short-lived signed access tokens (contract §2). */
export interface AccessTokens {
  readonly lifetimeSeconds: number
  issue(claims: AccessTokenClaims): string
  /** The claims of a well-formed, correctly signed, unexpired token; undefined otherwise. */
  verify(token: string): AccessTokenClaims | undefined
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
