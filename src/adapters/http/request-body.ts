import { IMPORT_LIMITS } from '../../domain/imports/import'
import { nestsDeeperThan } from '../../domain/shared/nesting'
import { illFormedTextAt } from '../../domain/shared/unicode'

// What a request's body may be and how it is read: the limits, the routes that take a file, and the parser, which
// yields a placeholder for each body it refuses. problem.ts answers each placeholder with its status.

export const MAX_BODY_BYTES = 256 * 1024

/** The routes that take a file (docs/api/exports-import.md "Import"): read by the route as it arrives, up to the import's limit. */
export const FILE_ROUTES: readonly string[] = ['/api/constituents/import', '/api/needs/import', '/api/taxonomy-terms/import']

/** The most a request to `pathname` may send. */
export function maxBodyBytesOf(pathname: string): number {
  return FILE_ROUTES.includes(pathname) ? IMPORT_LIMITS.maxBytes : MAX_BODY_BYTES
}

/** The routes whose body is signed (docs/referrals.md "The channel"): its text is kept as received, for the signature's check. */
const SIGNED_ROUTES: readonly string[] = ['/federation/v1/messages']
const signedBodies = new WeakMap<Request, string>()

/** The text of a signed route's body, as received. */
export function signedBodyOf(request: Request): string {
  return signedBodies.get(request) ?? ''
}

/** What the body parser yields for text that is not JSON; validation then reports it. */
export const INVALID_JSON = Object.freeze({ invalidJson: true })

/** What the body parser yields for a body holding a NUL character (no database stores it alike). */
export const NUL_IN_BODY = Object.freeze({ nulInBody: true })

/** What the body parser yields for JSON nested deeper than MAX_NESTING_DEPTH. */
export const NESTED_TOO_DEEP = Object.freeze({ nestedTooDeep: true })

/** What the body parser yields for JSON holding text that is not valid Unicode: where the first such text sits. */
export class IllFormedTextInBody {
  constructor(readonly path: string) {}
}

/** What the body parser yields for a body a JSON route is sent as anything but JSON (a form, text/plain, no type). */
export const NOT_JSON = Object.freeze({ notJson: true })

/** A body of a type the route does not take, found by the route itself (a file route reads its own body): 415. */
export class UnsupportedMediaTypeError extends Error {}

/** What the body parser yields for a file route's body, which it leaves unread for the route. */
export const FILE_BODY = Object.freeze({ file: true })

/** What the body parser yields for a body without Content-Length that grows past MAX_BODY_BYTES. */
export const BODY_TOO_LARGE = Object.freeze({ bodyTooLarge: true })

/** `application/json`, or a JSON-based type (`application/merge-patch+json`), whatever its parameters. */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i

/**
 * Forms are posted where browsers and Twilio post them: the pages (every path outside /api/) and Twilio's
 * webhooks. Every other route takes JSON alone.
 */
const takesForms = (path: string) => !path.startsWith('/api/') || path.startsWith('/api/webhooks/')

/**
 * A JSON route's body must say it is JSON (415 otherwise: a form or text/plain posted from another site's
 * page is no call of this API); form routes take forms, or JSON. An empty body is `null`. Broken JSON, a
 * wrong type and an over-long body are reported by validation, after authentication, so an anonymous
 * caller gets 401 first.
 */
export async function parseBody({ request }: { request: Request }): Promise<unknown> {
  // A file is the route's to read as it arrives (docs/api/exports-import.md "Import").
  if (FILE_ROUTES.includes(new URL(request.url).pathname)) return FILE_BODY
  const text = await readBody(request)
  if (text === undefined) return BODY_TOO_LARGE
  if (SIGNED_ROUTES.includes(new URL(request.url).pathname)) signedBodies.set(request, text)
  if (text === '') return null
  const contentType = request.headers.get('content-type') ?? ''
  if (takesForms(new URL(request.url).pathname)) {
    if (contentType.startsWith('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text))
  } else if (!JSON_MEDIA_TYPE.test(contentType)) {
    return NOT_JSON
  }
  // NUL is no character of a text people write, and PostgreSQL cannot store it: refuse it everywhere alike.
  if (text.includes('\\u0000') || text.includes('\u0000')) return NUL_IN_BODY
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return INVALID_JSON
  }
  // Refused before any validation: validators and formatters walk values recursively.
  if (nestsDeeperThan(body)) return NESTED_TOO_DEEP
  // A lone surrogate (`"\ud800"`) anywhere, keys included: the one check for every route (a URL cannot carry
  // one: its decoding makes U+FFFD of bytes that are not UTF-8, and forms are decoded alike).
  const illFormed = illFormedTextAt(body)
  return illFormed ? new IllFormedTextInBody(illFormed) : body
}

/**
 * The body as text, or undefined past MAX_BODY_BYTES. A declared Content-Length was already checked when
 * the request arrived (problem.ts, by maxBodyBytesOf); a body without one (chunked) is read only up to the limit.
 */
async function readBody(request: Request): Promise<string | undefined> {
  if (request.headers.has('content-length') || !request.body) return request.text()
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    size += next.value.byteLength
    if (size > MAX_BODY_BYTES) {
      await reader.cancel()
      return undefined
    }
    chunks.push(next.value)
  }
  return Buffer.concat(chunks).toString('utf8')
}
