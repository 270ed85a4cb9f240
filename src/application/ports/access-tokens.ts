export interface AccessTokenClaims {
  memberId: string
  organizationId: string
  /** The session (refresh-token family) the token was issued in: it stops working when the session ends. */
  sessionId: string
}

/** The claims of a token found genuine, and when it stops working. */
export type VerifiedAccessToken = AccessTokenClaims & { expiresAt: Date }

/** Why a token was refused: `expired` only for a genuine token whose time is up, `invalid` for the rest. */
export type AccessTokenFailure = 'expired' | 'invalid'

/** Short-lived signed access tokens (docs/api/access.md "Tokens"). */
export interface AccessTokens {
  readonly lifetimeSeconds: number
  issue(claims: AccessTokenClaims): string
  /** The claims of a well-formed, correctly signed, unexpired token; why not otherwise. */
  verify(token: string): VerifiedAccessToken | AccessTokenFailure
}
