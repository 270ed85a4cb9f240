import { Elysia } from 'elysia'
import type { Logger } from '../../application/ports/logger'
import { MAX_NESTING_DEPTH } from '../../domain/shared/nesting'
import { DomainError, NotFoundError, UnauthorizedError, type FieldError, type ResourceName } from '../../domain/errors'

export const MAX_BODY_BYTES = 256 * 1024

/** What the body parser yields for text that is not JSON; validation then reports it. */
export const INVALID_JSON = Object.freeze({ invalidJson: true })

/** What the body parser yields for a body holding a NUL character (no database stores it alike). */
export const NUL_IN_BODY = Object.freeze({ nulInBody: true })

/** What the body parser yields for JSON nested deeper than MAX_NESTING_DEPTH. */
export const NESTED_TOO_DEEP = Object.freeze({ nestedTooDeep: true })

/** What the body parser yields for a body without Content-Length that grows past MAX_BODY_BYTES. */
export const BODY_TOO_LARGE = Object.freeze({ bodyTooLarge: true })

/** Titles of a 400 where the interface names it differently from "Bad request" (docs/api.md "Errors"). */
const BAD_REQUEST_TITLES: Record<string, string> = {
  '/api/needs/public': 'Bad Request',
  '/api/organizations/settings': 'Invalid request',
  '/api/organizations/settings/email': 'Invalid input',
  '/api/organizations/settings/email/test': 'Invalid input',
}

/** 404 titles the interface or contract names; any other 404 is "Not found" (docs/api.md "Errors"). */
const NAMED_NOT_FOUND: ReadonlySet<ResourceName> = new Set(['Need', 'Constituent', 'Partner', 'Member', 'Household match'])

function notFoundTitle(error: DomainError): string {
  return error instanceof NotFoundError && NAMED_NOT_FOUND.has(error.resource) ? error.message : 'Not found'
}

const STATUS_OF: Record<string, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many_requests: 429,
  provider_failed: 502,
  unavailable: 503,
}

const GENERIC_TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Payload too large',
  429: 'Too many requests',
  500: 'Internal server error',
  503: 'Service unavailable',
}

export function problemResponse(
  status: number,
  detail: string,
  options: { title?: string; errors?: FieldError[]; headers?: Record<string, string> } = {},
): Response {
  const body = {
    type: 'about:blank',
    title: options.title ?? GENERIC_TITLES[status] ?? 'Error',
    status,
    detail,
    ...(options.errors?.length ? { errors: options.errors } : {}),
  }
  return new Response(JSON.stringify(body), {
    status,
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

function badRequestTitle(path: string): string {
  return BAD_REQUEST_TITLES[path] ?? 'Bad request'
}

/** A TypeBox error as a person would say it; unions of literals list their values. */
function describe(error: { summary?: string; message: string; schema?: { anyOf?: Array<{ const?: unknown; type?: unknown }> } }): string {
  const literals = error.schema?.anyOf?.map((s) => s.const).filter((v) => v !== undefined)
  if (literals && literals.length > 0) return `must be one of: ${literals.join(', ')}`
  // A query number Elysia could not coerce ("abc"): its schema is a union of integer forms.
  if (error.schema?.anyOf?.some((s) => s.type === 'integer')) return 'must be a whole number'
  return error.summary ?? error.message
}

interface ValidationIssue {
  path: string
  summary?: string
  message: string
  schema?: { anyOf?: Array<{ const?: unknown; type?: unknown }>; title?: string }
}

/** Where a failed value sits: a JSON pointer into the body, or `query/…` and `params/…`. */
function pathOf(type: string, issue: ValidationIssue): string {
  if (type === 'body') return issue.path || '/'
  // A coerced query number is checked alone ("property") and its error has no path: its schema's title names it.
  if (type === 'property') return `query/${issue.schema?.title ?? ''}`
  return `${type}${issue.path}`
}

/**
 * Turns every failure into problem+json (RFC 9457) with the interface's outcome names, and maps each
 * domain error kind to its status here and nowhere else. Unexpected errors are logged with the request
 * id and answered 500 without internals.
 */
export function problemDetails(logger: Logger, isOutage: (error: unknown) => boolean, onOutage: () => void) {
  return new Elysia({ name: 'problem-details' })
    .onRequest(({ request }) => {
      const length = Number(request.headers.get('content-length') ?? 0)
      // The body is left unread, so the connection cannot carry another request: close it.
      if (length > MAX_BODY_BYTES) {
        return problemResponse(413, `The request body may be at most ${MAX_BODY_BYTES} bytes`, { headers: { connection: 'close' } })
      }
    })
    .onError({ as: 'global' }, ({ code, error, path, request, set }) => {
      if (error instanceof DomainError) {
        const status = STATUS_OF[error.kind] ?? 500
        const title = status === 400 ? badRequestTitle(path) : status === 404 ? notFoundTitle(error) : 'title' in error ? String(error.title) : undefined
        const headers: Record<string, string> | undefined =
          'retryAfterSeconds' in error
            ? { 'retry-after': String(error.retryAfterSeconds) }
            : error instanceof UnauthorizedError
              ? { 'www-authenticate': authenticateChallenge(error) }
              : undefined
        const errors = 'errors' in error ? (error.errors as FieldError[]) : undefined
        return problemResponse(status, error.message, { ...(title ? { title } : {}), ...(errors ? { errors } : {}), ...(headers ? { headers } : {}) })
      }
      switch (code) {
        case 'VALIDATION': {
          if (error.value === BODY_TOO_LARGE) return problemResponse(413, `The request body may be at most ${MAX_BODY_BYTES} bytes`)
          if (error.value === NUL_IN_BODY) {
            return problemResponse(400, 'The request body may not contain NUL characters (\\u0000)', { title: badRequestTitle(path) })
          }
          if (error.value === NESTED_TOO_DEEP) {
            return problemResponse(400, `The request body may nest arrays and objects at most ${MAX_NESTING_DEPTH} levels deep`, { title: badRequestTitle(path) })
          }
          if (error.value === INVALID_JSON) {
            return problemResponse(400, 'The request body is not valid JSON', { title: badRequestTitle(path) })
          }
          const issues = (error.all as ValidationIssue[]).map((issue) => ({ path: pathOf(error.type, issue), message: describe(issue) }))
          return problemResponse(400, 'The request is not valid', { title: badRequestTitle(path), errors: issues })
        }
        case 'PARSE':
          return problemResponse(400, 'The request body cannot be read', { title: badRequestTitle(path) })
        case 'NOT_FOUND':
          return problemResponse(404, `No route ${request.method} ${new URL(request.url).pathname}`)
        default: {
          if ((error as { code?: string }).code === 'ERR_BODY_TOO_LARGE' || set.status === 413) {
            return problemResponse(413, `The request body may be at most ${MAX_BODY_BYTES} bytes`)
          }
          if (isOutage(error)) {
            onOutage()
            logger.warn('database unavailable', { path })
            return problemResponse(503, 'The database is not answering; try again shortly', { headers: { 'retry-after': '5' } })
          }
          logger.error('unexpected error', {
            method: request.method,
            path,
            error: error instanceof Error ? (error.stack ?? error.message) : String(error),
          })
          return problemResponse(500, 'Something went wrong on our side; the request id is in X-Request-Id')
        }
      }
    })
}
