import { afterAll, beforeAll, expect } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'

// What the docs-*.test.ts files share: one server a file, served as a deployment serves it, its OpenAPI
// document as served and with its named schemas inlined, and the list of every route the document must hold.
// Each file calls `openDocsServer()` at its top; its tests reach the rest through these exports.
export type Schema = Record<string, any>
export type Operation = {
  security?: unknown[]
  requestBody?: { content: Record<string, { schema: Schema }> }
  responses?: Record<string, any>
  parameters?: any[]
}

export let api: TestServer
export type Document = {
  openapi: string
  info: Schema
  servers: unknown[]
  tags: unknown[]
  paths: Record<string, Record<string, Operation>>
  components: Schema
}
/** The document as served, for the linters. */
export let served: Document
/** The same with every reference to a named schema or parameter replaced by it, for the checks of what a route takes and answers. */
export let doc: Document

/**
 * `value` with each `{$ref: "#/components/schemas/X"}` replaced by schema X, and each `{$ref: "#/components/parameters/Y"}`
 * by parameter Y (the named schemas and parameters do not nest themselves).
 */
function inlined(value: unknown, components: Schema): any {
  if (Array.isArray(value)) return value.map((item) => inlined(item, components))
  if (!value || typeof value !== 'object') return value
  const ref = (value as { $ref?: string }).$ref
  if (ref) {
    const [, kind, name] = /^#\/components\/(schemas|parameters)\/(.+)$/.exec(ref)!
    return inlined(components[kind!][name!], components)
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inlined(item, components)]))
}

/** Before the tests of the file that calls it: the server and its document; after them, the server stopped. */
export function openDocsServer(): void {
  beforeAll(async () => {
    // As a deployment serves it: behind TLS (an http:// server is an OWASP error, rightly).
    api = await startTestServer({ PUBLIC_BASE_URL: 'https://intake.example.org' })
    const response = await api.call('GET', '/api/openapi.json')
    expect(response.status).toBe(200)
    served = response.body
    doc = { ...served, paths: inlined(served.paths, served.components) }
  })
  afterAll(() => api.stop())
}

/** Every route built so far, whether it needs a token, and the error statuses it can answer. */
export const ROUTES: Array<[method: string, path: string, authenticated: boolean, errors: number[]]> = [
  ['get', '/healthz', false, []],
  ['get', '/readyz', false, [503]],
  ['post', '/api/auth/login', false, [400, 401, 403, 413, 415, 429]],
  ['post', '/api/auth/refresh', false, [400, 401, 403, 413, 415, 429]],
  ['post', '/api/auth/logout', true, [400, 401, 413, 415]],
  ['post', '/api/needs/public', false, [400, 403, 409, 413, 415, 422, 429]],
  ['post', '/api/needs', true, [400, 401, 403, 404, 409, 413, 415, 422]],
  ['post', '/api/auth/session', false, [400, 401, 403, 413, 415, 429]],
  ['post', '/api/auth/session/refresh', false, [401, 403, 415, 429]],
  ['post', '/api/auth/session/logout', true, [401, 415]],
  ['get', '/api/needs', true, [400, 401, 403]],
  ['get', '/api/needs/export', true, [400, 401, 403]],
  ['get', '/api/constituents/export', true, [400, 401, 403]],
  ['post', '/api/constituents/import', true, [400, 401, 403, 413, 415]],
  ['post', '/api/needs/import', true, [400, 401, 403, 413, 415]],
  ['get', '/api/needs/{id}', true, [400, 401, 403, 404]],
  ['put', '/api/needs/{id}', true, [400, 401, 403, 404, 409, 413, 415]],
  ['post', '/api/needs/{id}/notes', true, [400, 401, 403, 404, 409, 413, 415, 422]],
  ['post', '/api/needs/{id}/sms', true, [400, 401, 403, 404, 409, 413, 415, 422, 429]],
  ['get', '/api/needs/{id}/interactions', true, [400, 401, 403, 404]],
  ['get', '/api/needs/{id}/history', true, [400, 401, 403, 404]],
  ['get', '/api/partners', true, [400, 401]],
  ['post', '/api/partners', true, [400, 401, 403, 413, 415]],
  ['put', '/api/partners/{id}', true, [400, 401, 403, 404, 409, 413, 415]],
  ['get', '/api/constituents', true, [400, 401, 403]],
  ['post', '/api/constituents', true, [400, 401, 403, 413, 415]],
  ['get', '/api/constituents/{id}', true, [400, 401, 403, 404]],
  ['put', '/api/constituents/{id}', true, [400, 401, 403, 404, 409, 413, 415]],
  ['post', '/api/constituents/{id}/erase', true, [400, 401, 403, 404]],
  ['get', '/api/constituents/{id}/needs', true, [400, 401, 403, 404]],
  ['get', '/api/constituents/{id}/household', true, [400, 401, 403, 404]],
  ['post', '/api/constituents/merge', true, [400, 401, 403, 404, 409, 413, 415]],
  ['post', '/api/constituents/duplicate-check', true, [400, 401, 403, 413, 415]],
  ['get', '/api/household-matches', true, [400, 401, 403]],
  ['post', '/api/household-matches/{id}/resolve', true, [400, 401, 403, 404, 409, 413, 415]],
  ['post', '/api/auth/accept-invite', false, [400, 403, 413, 415, 429]],
  ['post', '/api/auth/password-reset', false, [400, 403, 413, 415, 429]],
  ['post', '/api/auth/reset-password', false, [400, 403, 413, 415, 429]],
  ['get', '/api/members', true, [400, 401, 403]],
  ['post', '/api/members', true, [400, 401, 403, 409, 413, 415]],
  ['put', '/api/members/{id}', true, [400, 401, 403, 404, 409, 413, 415]],
  ['delete', '/api/members/{id}', true, [400, 401, 403, 404, 409]],
  ['post', '/api/members/{id}/invitation', true, [400, 401, 403, 404, 409, 413, 415]],
  ['get', '/api/profile', true, [401]],
  ['put', '/api/profile', true, [400, 401, 413, 415]],
  ['post', '/api/profile/password', true, [400, 401, 413, 415, 429]],
  ['get', '/api/organizations/settings', true, [401, 403]],
  ['put', '/api/organizations/settings', true, [400, 401, 403, 409, 413, 415]],
  ['get', '/api/organizations/settings/email', true, [401, 403, 404]],
  ['put', '/api/organizations/settings/email', true, [400, 401, 403, 413, 415]],
  ['post', '/api/organizations/settings/email/test', true, [400, 401, 403, 413, 415, 502]],
  ['get', '/api/webhook-endpoints', true, [400, 401, 403]],
  ['post', '/api/webhook-endpoints', true, [400, 401, 403, 409, 413, 415]],
  ['get', '/api/webhook-endpoints/{id}', true, [400, 401, 403, 404]],
  ['put', '/api/webhook-endpoints/{id}', true, [400, 401, 403, 404, 413, 415]],
  ['delete', '/api/webhook-endpoints/{id}', true, [400, 401, 403, 404]],
  ['get', '/api/webhook-endpoints/{id}/deliveries', true, [400, 401, 403, 404]],
  ['get', '/api/audit-events', true, [400, 401, 403]],
  ['get', '/api/reports/needs', true, [400, 401, 403]],
  // Twilio calls these: no bearer token, an X-Twilio-Signature instead (403 without a valid one).
  ['post', '/api/webhooks/twilio/sms', false, [400, 403, 413]],
  ['post', '/api/webhooks/twilio/status', false, [400, 403, 413]],
]

/** Routes whose bodies are Twilio's form parameters rather than JSON documents of this service. */
export const WEBHOOKS = new Set(['/api/webhooks/twilio/sms', '/api/webhooks/twilio/status'])

export const operation = (method: string, path: string): Operation => doc.paths[path]![method]!
