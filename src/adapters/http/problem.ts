import { Elysia } from 'elysia'
import { isServiceError, type ErrorKind, type ServiceError } from '../../application/errors'
import type { Logger } from '../../application/ports/logger'
import { MAX_NESTING_DEPTH } from '../../domain/shared/nesting'
import { ILL_FORMED_TEXT } from '../../domain/shared/unicode'
import { InvalidError, TooManyRequestsError, UnauthorizedError, type FieldError } from '../../domain/errors'
import { ProviderError } from '../../application/ports/provider-error'
import { OUTAGE_DETAIL, RETRY_AFTER_SECONDS, type DatabaseOutages } from './database-outages'
import {
  BODY_TOO_LARGE,
  IllFormedTextInBody,
  INVALID_JSON,
  MAX_BODY_BYTES,
  maxBodyBytesOf,
  NESTED_TOO_DEEP,
  NOT_JSON,
  NUL_IN_BODY,
  UnsupportedMediaTypeError,
} from './request-body'

/**
 * Every kind of problem an answer can report: the kinds of the use cases' errors, and those only HTTP
 * knows (a body too large or not JSON, a failure of our own). Each has its status, its `type` and its usual title in
 * the total records below: a kind added without them does not compile.
 */
export type ProblemKind = ErrorKind | 'payload_too_large' | 'unsupported_media_type' | 'internal'

const STATUS_OF: Record<ProblemKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  too_many_requests: 429,
  internal: 500,
  provider_failed: 502,
  unavailable: 503,
}

/** One title per status (docs/api/conventions.md "Errors"): what went wrong in particular is in `detail` and `errors`. */
export const TITLE_OF: Record<ProblemKind, string> = {
  invalid: 'Bad request',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  not_found: 'Not found',
  conflict: 'Conflict',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  idempotency_key_reused: 'Unprocessable content',
  too_many_requests: 'Too many requests',
  internal: 'Internal server error',
  provider_failed: 'Bad gateway',
  unavailable: 'Service unavailable',
}

/**
 * The problem `type` (RFC 9457 §3.1.1): a tag URI (RFC 4151) per kind, the same on every deployment
 * whatever its address, so a client can match on it; it names a kind, nothing to fetch (docs/api/conventions.md "Errors").
 */
export const PROBLEM_TYPE_PREFIX = 'tag:intake.example,2026:problems/'
export const typeOf = (kind: ProblemKind) => `${PROBLEM_TYPE_PREFIX}${kind.replaceAll('_', '-')}`

/** The kind each status reports: one kind per status, so a status names its type and title too. */
export const KIND_OF_STATUS: ReadonlyMap<number, ProblemKind> = new Map(
  (Object.entries(STATUS_OF) as Array<[ProblemKind, number]>).map(([kind, status]) => [status, kind]),
)

/**
 * The most a problem says (docs/api/conventions.md "Errors"): `detail` and each field's `path` and `message` are cut to
 * these lengths, and `errors` to its first entries, as the problem is written. A body of 256 KiB can hold
 * thousands of unknown fields with names of any length: the answer to it stays small, and the OpenAPI
 * document can give every bound.
 */
export const PROBLEM_LIMITS = { detail: 2000, errors: 100, path: 1000, message: 1000 } as const

const clip = (text: string, maxLength: number) => (text.length > maxLength ? text.slice(0, maxLength) : text)

/** A provider's failure says which provider in its detail; the title is the status's, like every other. */
function detailOf(error: ServiceError): string {
  return error instanceof ProviderError ? `${error.title}: ${error.message}` : error.message
}

function headersOf(error: ServiceError): Record<string, string> | undefined {
  if (error instanceof TooManyRequestsError) return { 'retry-after': String(error.retryAfterSeconds) }
  if (error instanceof UnauthorizedError) return { 'www-authenticate': authenticateChallenge(error) }
  return undefined
}

/** A problem's body (RFC 9457), clipped to `PROBLEM_LIMITS`. */
export function problemBody(kind: ProblemKind, detail: string, errors?: FieldError[]) {
  return {
    type: typeOf(kind),
    title: TITLE_OF[kind],
    status: STATUS_OF[kind],
    detail: clip(detail, PROBLEM_LIMITS.detail),
    ...(errors?.length
      ? {
          errors: errors
            .slice(0, PROBLEM_LIMITS.errors)
            .map(({ path, message }) => ({ path: clip(path, PROBLEM_LIMITS.path), message: clip(message, PROBLEM_LIMITS.message) })),
        }
      : {}),
  }
}

/** The problem a route answers for a use case's error: a bulk change's result for one need says the same. */
export function problemOf(error: ServiceError) {
  return problemBody(error.kind, detailOf(error), error instanceof InvalidError ? error.errors : undefined)
}

export function problemResponse(
  kind: ProblemKind,
  detail: string,
  options: { errors?: FieldError[]; headers?: Record<string, string> } = {},
): Response {
  return new Response(JSON.stringify(problemBody(kind, detail, options.errors)), {
    status: STATUS_OF[kind],
    headers: { 'content-type': 'application/problem+json', ...options.headers },
  })
}

/**
 * The challenge every 401 carries (RFC 9110 §11.6.1). A refused bearer token adds RFC 6750's
 * `invalid_token` and why; a request without a token gets the bare challenge (RFC 6750 §3).
 */
function authenticateChallenge(error: UnauthorizedError): string {
  const challenge = 'Bearer realm="intake"'
  if (!error.token || error.token === 'missing') return challenge
  return `${challenge}, error="invalid_token", error_description="${error.message.replace(/["\\]/g, '')}"`
}

/**
 * Each field once, with one message (validation-messages.ts words them): a missing field is said to be
 * required, not also to be of the wrong type.
 */
function fieldErrors(type: string, issues: ValidationIssue[]): FieldError[] {
  const byPath = new Map<string, string>()
  for (const issue of issues) {
    const path = pathOf(type, issue)
    if (!byPath.has(path) || issue.message === 'is required') byPath.set(path, issue.message)
  }
  return [...byPath].map(([path, message]) => ({ path, message }))
}

/**
 * A validation error's issues. A query list (`status=NEW,OPEN`) is decoded by TypeBox, whose error has no
 * list of issues and names no parameter: the list's schema names it by its title, as a query number's does.
 */
function issuesOf(error: unknown): ValidationIssue[] {
  const { all, error: decodeError } = error as { all?: ValidationIssue[]; error?: { message: string; schema: unknown } }
  if (all) return all
  const list = (error as { schema?: { title?: string } }).schema
  return decodeError ? [{ path: '', message: decodeError.message, schema: { title: list?.title } }] : []
}

interface ValidationIssue {
  path: string
  message: string
  schema?: { title?: string }
}

/** Where a failed value sits: a JSON pointer into the body, or `query/…` and `params/…`. */
function pathOf(type: string, issue: ValidationIssue): string {
  if (type === 'body') return issue.path || '/'
  // A coerced query number is checked alone ("property") and its error has no path: its schema's title names it.
  if (type === 'property') return `query/${issue.schema?.title ?? ''}`
  return `${type}${issue.path}`
}

/** A failure of the service's own: the log has the rest, under the request id. */
const INTERNAL_DETAIL = 'Something went wrong on our side; the request id is in X-Request-Id'

/**
 * Turns every failure into problem+json (RFC 9457) with one title per status, and maps each
 * domain error kind to its status here and nowhere else. A database outage (away, full, overloaded) is
 * 503 with Retry-After, counted and logged once per burst; unexpected errors are logged with the request
 * id and answered 500 without internals.
 */
export function problemDetails(logger: Logger, outages: DatabaseOutages) {
  return new Elysia({ name: 'problem-details' })
    .onRequest(({ request }) => {
      const length = Number(request.headers.get('content-length') ?? 0)
      // Only a body past the usual limit has its route's limit looked up: most requests are far below.
      const limit = length > MAX_BODY_BYTES ? maxBodyBytesOf(new URL(request.url).pathname) : MAX_BODY_BYTES
      // The body is left unread, so the connection cannot carry another request: close it.
      if (length > limit) {
        return problemResponse('payload_too_large', `The request body may be at most ${limit} bytes`, {
          headers: { connection: 'close' },
        })
      }
    })
    .onError({ as: 'global' }, ({ code, error, path, request, set }) => {
      if (isServiceError(error)) {
        return new Response(JSON.stringify(problemOf(error)), {
          status: STATUS_OF[error.kind],
          headers: { 'content-type': 'application/problem+json', ...headersOf(error) },
        })
      }
      if (error instanceof UnsupportedMediaTypeError) return problemResponse('unsupported_media_type', error.message)
      const invalid = (detail: string, errors?: FieldError[]) => problemResponse('invalid', detail, errors ? { errors } : {})
      switch (code) {
        case 'VALIDATION': {
          // An answer its schema does not allow (checked with CHECK_ANSWERS, as in tests) is ours to mend, not the
          // caller's: where it broke is logged, never the values.
          if (error.type === 'response') {
            logger.error('an answer does not match its schema', {
              method: request.method,
              path,
              errors: fieldErrors('response', issuesOf(error)),
            })
            return problemResponse('internal', INTERNAL_DETAIL)
          }
          if (error.value === BODY_TOO_LARGE)
            return problemResponse('payload_too_large', `The request body may be at most ${MAX_BODY_BYTES} bytes`)
          if (error.value === NOT_JSON)
            return problemResponse('unsupported_media_type', 'The request body must be JSON, sent as Content-Type: application/json')
          if (error.value === NUL_IN_BODY) return invalid('The request body may not contain NUL characters (\\u0000)')
          if (error.value === NESTED_TOO_DEEP)
            return invalid(`The request body may nest arrays and objects at most ${MAX_NESTING_DEPTH} levels deep`)
          if (error.value === INVALID_JSON) return invalid('The request body is not valid JSON')
          if (error.value instanceof IllFormedTextInBody)
            return invalid('The request is not valid', [{ path: error.value.path, message: ILL_FORMED_TEXT }])
          return invalid('The request is not valid', fieldErrors(error.type ?? 'property', issuesOf(error)))
        }
        case 'PARSE':
          return invalid('The request body cannot be read')
        case 'NOT_FOUND':
          return problemResponse('not_found', `No route ${request.method} ${new URL(request.url).pathname}`)
        default: {
          if ((error as { code?: string }).code === 'ERR_BODY_TOO_LARGE' || set.status === 413) {
            return problemResponse('payload_too_large', `The request body may be at most ${MAX_BODY_BYTES} bytes`)
          }
          const outage = outages.kindOf(error)
          if (outage) {
            outages.report(outage)
            return problemResponse('unavailable', OUTAGE_DETAIL[outage], { headers: { 'retry-after': String(RETRY_AFTER_SECONDS) } })
          }
          // The error itself: the logger writes a database's error by its statement and code, never its values.
          logger.error('unexpected error', { method: request.method, path, error })
          return problemResponse('internal', INTERNAL_DETAIL)
        }
      }
    })
}
