/**
 * Typed failures of the domain and the use cases, one `kind` each. The HTTP adapter maps each kind to a
 * status once (src/adapters/http/problem.ts); nothing else turns an error into a status code.
 */
export interface FieldError {
  /** JSON-pointer-like path of the offending field, e.g. `/customFields/phone`. */
  path: string
  message: string
}

export type DomainErrorKind =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'idempotency_key_reused'
  | 'payload_too_large'
  | 'too_many_requests'
  | 'unavailable'

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind
}

/** 400: the request is well-formed but breaks a rule; `errors` names the fields. */
export class InvalidError extends DomainError {
  readonly kind = 'invalid' as const
  constructor(
    message: string,
    readonly errors: FieldError[] = [],
  ) {
    super(message)
  }
  static field(path: string, message: string): InvalidError {
    return new InvalidError(message, [{ path, message }])
  }
  /** Throws `errors` under `message` when there are any. */
  static throwIfAny(errors: FieldError[], message: string): void {
    if (errors.length > 0) throw new InvalidError(message, errors)
  }
}

/**
 * Why a bearer token was refused: none was sent; it is malformed or forged; it expired; or its session
 * ended (logout, a revoked refresh-token family) or its member lost access.
 */
export type TokenRefusal = 'missing' | 'invalid' | 'expired' | 'ended'

const TOKEN_REFUSALS: Record<TokenRefusal, string> = {
  missing: 'An access token is required: send Authorization: Bearer <accessToken>',
  invalid: 'The access token is malformed or its signature is not valid',
  expired: 'The access token expired: refresh it or log in again',
  ended: 'The session of this access token ended (logout or revocation), or its member no longer has access',
}

/** 401: no valid credentials. A wrong password never says which part was wrong. */
export class UnauthorizedError extends DomainError {
  readonly kind = 'unauthorized' as const
  constructor(
    message = 'Missing or invalid credentials',
    /** Set when a bearer token was the credential asked for. */
    readonly token?: TokenRefusal,
  ) {
    super(message)
  }
  static token(refusal: TokenRefusal): UnauthorizedError {
    return new UnauthorizedError(TOKEN_REFUSALS[refusal], refusal)
  }
}

/** 403: authenticated, but the permission table does not allow it. */
export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden' as const
  constructor(message = 'You are not allowed to do this') {
    super(message)
  }
}

/** The records a 404 can name; its `detail` says which ("Need not found", docs/api/conventions.md "Errors"). */
export type ResourceName =
  | 'Need'
  | 'Constituent'
  | 'Partner'
  | 'Member'
  | 'Household match'
  | 'Organization'
  | 'Email settings'
  | 'Webhook endpoint'
  | 'Saved view'
  | 'Service'
  | 'Message'
  | 'Referral partner'
  | 'Directory'
  | 'Service at location'
  | 'Referral'

/** 404: unknown, or belonging to another organization or partner scope (never revealed). */
export class NotFoundError extends DomainError {
  readonly kind = 'not_found' as const
  constructor(readonly resource: ResourceName) {
    super(`${resource} not found`)
  }
}

/** 409: the request conflicts with the current state. */
export class ConflictError extends DomainError {
  readonly kind = 'conflict' as const
}

/**
 * 422: an Idempotency-Key sent again with another request than the one it first came with (docs/api/conventions.md
 * "Retrying a create"): the key cannot stand for both.
 */
export class IdempotencyKeyReusedError extends DomainError {
  readonly kind = 'idempotency_key_reused' as const
  constructor() {
    super('This Idempotency-Key was used for a different request within the last 24 hours: send a new key with a new request')
  }
}

/** 413: more than a rule allows at once (an imported file's rows or bytes); `detail` says which limit and what was done. */
export class PayloadTooLargeError extends DomainError {
  readonly kind = 'payload_too_large' as const
}

/** 429: too many attempts; `retryAfterSeconds` goes into `Retry-After`. */
export class TooManyRequestsError extends DomainError {
  readonly kind = 'too_many_requests' as const
  constructor(
    readonly retryAfterSeconds: number,
    message = 'Too many requests, try again later',
  ) {
    super(message)
  }
}

/** 503: a dependency (the database) is not answering; the request may be retried. */
export class UnavailableError extends DomainError {
  readonly kind = 'unavailable' as const
}
