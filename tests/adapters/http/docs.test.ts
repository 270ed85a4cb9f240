import { createConfig, lintFromString } from '@redocly/openapi-core'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { PORTS } from '../../../src/main/container'
import { startTestServer, type TestServer } from '../../support/http'
import { owaspErrors } from '../../openapi-lint/owasp-ruleset'

// docs/self-hosting.md (docs) and docs/api.md "Errors" (bounded inputs, security marks) on the served OpenAPI document.
type Schema = Record<string, any>
type Operation = {
  security?: unknown[]
  requestBody?: { content: Record<string, { schema: Schema }> }
  responses?: Record<string, any>
  parameters?: any[]
}

let api: TestServer
type Document = {
  openapi: string
  info: Schema
  servers: unknown[]
  tags: unknown[]
  paths: Record<string, Record<string, Operation>>
  components: Schema
}
/** The document as served, for the linters. */
let served: Document
/** The same with every reference to a named schema replaced by the schema, for the checks of what a route takes and answers. */
let doc: Document

/** `value` with each `{$ref: "#/components/schemas/X"}` replaced by schema X (the named schemas do not nest themselves). */
function inlined(value: unknown, schemas: Record<string, unknown>): any {
  if (Array.isArray(value)) return value.map((item) => inlined(item, schemas))
  if (!value || typeof value !== 'object') return value
  const ref = (value as { $ref?: string }).$ref
  if (ref) return inlined(schemas[ref.replace('#/components/schemas/', '')], schemas)
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inlined(item, schemas)]))
}

beforeAll(async () => {
  // As a deployment serves it: behind TLS (an http:// server is an OWASP error, rightly).
  api = await startTestServer({ PUBLIC_BASE_URL: 'https://intake.example.org' })
  const response = await api.call('GET', '/api/openapi.json')
  expect(response.status).toBe(200)
  served = response.body
  doc = { ...served, paths: inlined(served.paths, served.components.schemas) }
})
afterAll(() => api.stop())

/** Every route built so far, whether it needs a token, and the error statuses it can answer. */
const ROUTES: Array<[method: string, path: string, authenticated: boolean, errors: number[]]> = [
  ['get', '/healthz', false, []],
  ['get', '/readyz', false, [503]],
  ['post', '/api/auth/login', false, [400, 401, 403, 413, 415, 429]],
  ['post', '/api/auth/refresh', false, [400, 401, 403, 413, 415, 429]],
  ['post', '/api/auth/logout', true, [400, 401, 413, 415]],
  ['post', '/api/needs/public', false, [400, 403, 413, 415, 429]],
  ['post', '/api/needs', true, [400, 401, 403, 413, 415]],
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
  ['post', '/api/needs/{id}/notes', true, [400, 401, 403, 404, 413, 415]],
  ['post', '/api/needs/{id}/sms', true, [400, 401, 403, 404, 413, 415, 429]],
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
const WEBHOOKS = new Set(['/api/webhooks/twilio/sms', '/api/webhooks/twilio/status'])
/** The browser session's cookie is their input: they take no body (docs/api.md "Tokens"). */
const BODILESS = new Set(['/api/auth/session/refresh', '/api/auth/session/logout', '/api/constituents/{id}/erase'])
/** Imports take a CSV file, not JSON (docs/api.md "Import"): their body has a test of its own. */
const FILES = new Set(['/api/constituents/import', '/api/needs/import'])

const operation = (method: string, path: string): Operation => doc.paths[path]![method]!

/** Every schema inside `schema` with its JSON path (the free values of customFields have no schema). */
function* walk(schema: Schema, path = ''): Generator<[string, Schema]> {
  yield [path, schema]
  for (const [name, child] of Object.entries<Schema>(schema.properties ?? {})) yield* walk(child, `${path}/${name}`)
  if (schema.items) yield* walk(schema.items, `${path}[]`)
  for (const branch of schema.anyOf ?? []) yield* walk(branch, path)
}

describe('GET /api/docs', () => {
  test('answers the interactive documentation as HTML, needing no credentials', async () => {
    const response = await api.call('GET', '/api/docs')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('text/html')
    expect(String(response.body).toLowerCase()).toContain('<html')
  })

  /** The scripts and styles the page loads, as a browser resolves them. */
  async function assetsOfPage(): Promise<{ html: string; policy: string | null; sources: URL[] }> {
    const response = await api.call('GET', '/api/docs')
    const html = String(response.body)
    const sources = [...html.matchAll(/<(?:script|link|img)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map(
      (m) => new URL(m[1]!, `${api.url}/api/docs`),
    )
    return { html, policy: response.headers.get('content-security-policy'), sources }
  }

  test('the page loads the OpenAPI document from a URL that answers it (resolved as a browser would)', async () => {
    const { sources } = await assetsOfPage()
    const init = await (await fetch(sources.find((u) => u.pathname.endsWith('/init.js'))!)).text()
    const specUrl = new URL(/url: '([^']+)'/.exec(init)![1]!, `${api.url}/api/docs`)
    expect(specUrl.pathname).toBe('/api/openapi.json')
    const spec = await fetch(specUrl)
    expect(spec.status).toBe(200)
    expect(((await spec.json()) as { openapi: string }).openapi).toMatch(/^3\./)
  })

  test('the page names nothing outside the service, and everything it loads is the pinned package, served by the service', async () => {
    const { html, policy, sources } = await assetsOfPage()
    // The browser enforces it too: everything from this origin only.
    const directives = Object.fromEntries(policy!.split(/;\s*/).map((d) => [d.split(' ')[0], d]))
    expect(directives).toMatchObject({
      'default-src': "default-src 'none'",
      'script-src': "script-src 'self'",
      'connect-src': "connect-src 'self'",
    })
    expect(html).not.toMatch(/(https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}/i)
    expect(sources.map((u) => u.origin)).toEqual([api.url, api.url, api.url])
    const packaged = join(import.meta.dir, '../../../node_modules/swagger-ui-dist')
    for (const [file, type] of [
      ['swagger-ui-bundle.js', 'text/javascript'],
      ['swagger-ui.css', 'text/css'],
    ] as const) {
      const asset = await fetch(sources.find((u) => u.pathname.endsWith(`/${file}`))!)
      expect(asset.status).toBe(200)
      expect(asset.headers.get('content-type')).toStartWith(type)
      expect(await asset.text()).toBe(await Bun.file(join(packaged, file)).text())
    }
    // Swagger UI would otherwise send the document to swagger.io's validator.
    const init = await (await fetch(sources.find((u) => u.pathname.endsWith('/init.js'))!)).text()
    expect(init).toContain('validatorUrl: null')
  })
})

describe('GET /api/openapi.json', () => {
  test('has no error under Redocly’s recommended rules (its warnings: no license, no 4xx on the health routes)', async () => {
    const problems = await lintFromString({
      source: JSON.stringify(served),
      absoluteRef: 'openapi.json',
      config: await createConfig({ extends: ['recommended'] }),
    })
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)
    expect(errors).toEqual([])
  })

  test('has no error under Spectral’s OWASP ruleset, but for the exceptions of tests/openapi-lint (docs/api.md "OpenAPI lint")', async () => {
    const errors = (await owaspErrors(served)).map(({ rule, path, message }) => `${rule} at ${path}: ${message}`)
    expect(errors).toEqual([])
  })

  test('is an OpenAPI 3 document needing no credentials', async () => {
    const response = await api.call('GET', '/api/openapi.json')
    expect(response.headers.get('content-type')).toStartWith('application/json')
    expect(doc.openapi).toMatch(/^3\./)
    expect(doc.info.title).toBeTruthy()
    expect(doc.info.version).toBeTruthy()
  })

  test('lists every route, at the paths of the interface (no trailing slash), and nothing else', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    )
    expect(documented.sort()).toEqual(ROUTES.map(([method, path]) => `${method.toUpperCase()} ${path}`).sort())
  })

  test('names this deployment as its server: PUBLIC_BASE_URL', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: api.server.container.get(PORTS.config).publicBaseUrl })])
  })

  test('defines every tag it uses, each with a description; every operation has a tag', () => {
    const defined = new Map<string, string>(
      (doc.tags as Array<{ name: string; description: string }>).map((tag) => [tag.name, tag.description]),
    )
    const operations = Object.values(doc.paths).flatMap((methods) => Object.values(methods)) as Array<Operation & { tags?: string[] }>
    const used = new Set(operations.flatMap((o) => o.tags ?? []))
    expect(operations.filter((o) => (o.tags ?? []).length === 0)).toEqual([])
    expect([...used].filter((tag) => !defined.has(tag))).toEqual([])
    for (const [name, description] of defined)
      expect({ name, described: description.length > 0, used: used.has(name) }).toEqual({ name, described: true, used: true })
  })

  test('every operation has a summary and a description', () => {
    const bare = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods as Record<string, { summary?: string; description?: string }>)
        .filter(([, o]) => !o.summary || !o.description)
        .map(([method]) => `${method} ${path}`),
    )
    expect(bare).toEqual([])
  })

  test('an answer without a body (204) has no content', () => {
    for (const [method, path] of [
      ['post', '/api/auth/logout'],
      ['post', '/api/webhooks/twilio/status'],
    ] as const) {
      const response = operation(method, path).responses!['204']
      expect(response).toBeDefined()
      expect(response).not.toHaveProperty('content')
    }
  })

  test('exports document their file as text/csv with its headers, and a required format of csv only', () => {
    for (const path of ['/api/needs/export', '/api/constituents/export']) {
      const { responses, parameters } = operation('get', path)
      expect(Object.keys(responses!['200'].content)).toEqual(['text/csv'])
      expect(responses!['200'].content['text/csv'].schema).toMatchObject({ type: 'string', contentMediaType: 'text/csv' })
      expect(Object.keys(responses!['200'].headers).sort()).toEqual(['Cache-Control', 'Content-Disposition'])
      expect(parameters!.find((p) => p.name === 'format')).toMatchObject({ in: 'query', required: true, schema: { const: 'csv' } })
      expect(parameters!.map((p) => p.name)).not.toContain('page')
    }
  })

  test('imports document their file as a text/csv body and a dry run as an optional boolean', () => {
    for (const path of ['/api/needs/import', '/api/constituents/import']) {
      const { requestBody, parameters } = operation('post', path) as { requestBody: any; parameters: Array<Record<string, unknown>> }
      expect(Object.keys(requestBody.content)).toEqual(['text/csv'])
      expect(requestBody).toMatchObject({ required: true, content: { 'text/csv': { schema: { type: 'string' } } } })
      expect(parameters.find((p) => p.name === 'dryRun')).toMatchObject({ in: 'query', required: false, schema: { type: 'boolean' } })
    }
  })

  test('declares the bearer scheme (JWT), with what RFC 8725 asks a token to say of itself', () => {
    const { description, ...scheme } = doc.components.securitySchemes.bearer
    expect(scheme).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    for (const promise of ['RFC8725', 'HS256 only', 'expiry', 'constant time', 'opaque']) expect(description).toContain(promise)
  })

  test('declares the webhooks’ signature as their security scheme', () => {
    const { description, ...scheme } = doc.components.securitySchemes.twilioSignature
    expect(scheme).toEqual({ type: 'apiKey', in: 'header', name: 'X-Twilio-Signature' })
    expect(description).toContain('403')
  })

  test.each(ROUTES)('%s %s carries the right security requirement', (method, path, authenticated) => {
    const { security } = operation(method, path)
    if (authenticated) expect(security).toEqual([{ bearer: [] }])
    else if (WEBHOOKS.has(path)) expect(security).toEqual([{ twilioSignature: [] }])
    else expect(security).toEqual([])
  })

  test.each(ROUTES)('%s %s documents its error answers as problems', (method, path, _authenticated, errors) => {
    const responses = operation(method, path).responses ?? {}
    const documentedErrors = Object.keys(responses)
      .map(Number)
      .filter((status) => status >= 400)
    expect(documentedErrors.sort()).toEqual([...errors].sort())
    for (const status of errors) {
      const schema = Object.values<{ schema: Schema }>(responses[status].content)[0]!.schema
      expect(schema.required).toEqual(expect.arrayContaining(['type', 'title', 'status', 'detail']))
    }
    const successes = Object.keys(responses).filter((status) => Number(status) < 400)
    expect(successes).toHaveLength(1)
  })

  test('documents 201 for creates, 202 for a queued text or reset email, 204 for logout, the status webhook and a password change, 200 otherwise', () => {
    const success = (method: string, path: string) => Object.keys(operation(method, path).responses ?? {}).find((s) => Number(s) < 400)
    expect(success('post', '/api/needs')).toBe('201')
    expect(success('post', '/api/needs/public')).toBe('201')
    expect(success('post', '/api/needs/{id}/notes')).toBe('201')
    expect(success('post', '/api/partners')).toBe('201')
    expect(success('post', '/api/constituents')).toBe('201')
    expect(success('post', '/api/members')).toBe('201')
    expect(success('post', '/api/auth/logout')).toBe('204')
    expect(success('post', '/api/needs/{id}/sms')).toBe('202')
    expect(success('post', '/api/auth/password-reset')).toBe('202')
    expect(success('post', '/api/webhooks/twilio/status')).toBe('204')
    expect(success('post', '/api/profile/password')).toBe('204')
    const ok = [
      ['get', '/api/needs'],
      ['get', '/api/needs/export'],
      ['get', '/api/constituents/export'],
      ['post', '/api/constituents/import'],
      ['post', '/api/needs/import'],
      ['put', '/api/needs/{id}'],
      ['post', '/api/auth/login'],
      ['get', '/api/partners'],
      ['get', '/api/constituents'],
      ['put', '/api/constituents/{id}'],
      ['get', '/api/constituents/{id}/needs'],
      ['get', '/api/constituents/{id}'],
      ['get', '/api/needs/{id}/history'],
      ['post', '/api/constituents/merge'],
      ['post', '/api/constituents/{id}/erase'],
      ['post', '/api/constituents/duplicate-check'],
      ['get', '/api/household-matches'],
      ['post', '/api/household-matches/{id}/resolve'],
      ['post', '/api/auth/accept-invite'],
      ['post', '/api/auth/reset-password'],
      ['get', '/api/members'],
      ['put', '/api/members/{id}'],
      ['get', '/api/profile'],
      ['put', '/api/profile'],
      ['get', '/api/organizations/settings'],
      ['put', '/api/organizations/settings'],
      ['get', '/api/organizations/settings/email'],
      ['put', '/api/organizations/settings/email'],
      ['post', '/api/organizations/settings/email/test'],
      ['post', '/api/webhooks/twilio/sms'],
    ]
    for (const [method, path] of ok) {
      expect(success(method!, path!)).toBe('200')
    }
  })

  const bodyRoutes = ROUTES.filter(([method, path]) => method !== 'get' && method !== 'delete' && !BODILESS.has(path) && !FILES.has(path))

  test.each(bodyRoutes.filter(([, path]) => !WEBHOOKS.has(path)))('%s %s has a strict JSON request body', (method, path) => {
    const schema = operation(method, path).requestBody?.content['application/json']?.schema
    expect(schema).toBeDefined()
    expect(schema!.type).toBe('object')
    expect(schema!.additionalProperties).toBe(false)
    expect(Object.keys(schema!.properties ?? {}).length).toBeGreaterThan(0)
  })

  test.each(bodyRoutes)('%s %s bounds every string, array and integer of its body', (method, path) => {
    const schema = operation(method, path).requestBody!.content['application/json']!.schema
    const unbounded: string[] = []
    for (const [at, node] of walk(schema)) {
      const types = [node.type].flat()
      if (types.includes('string') && node.maxLength === undefined && node.const === undefined && node.enum === undefined)
        unbounded.push(at)
      if (node.type === 'array' && node.maxItems === undefined) unbounded.push(at)
      if (node.type === 'integer' && (node.minimum === undefined || node.maximum === undefined)) unbounded.push(at)
      if (node.type === 'object' && node.patternProperties && node.maxProperties === undefined) unbounded.push(at)
    }
    expect(unbounded).toEqual([])
  })

  test('the documented limits are the ones enforced', () => {
    const body = (method: string, path: string) => operation(method, path).requestBody!.content['application/json']!.schema
    expect(body('post', '/api/needs/public').required).toEqual(['description'])
    expect(body('post', '/api/needs/public').properties.organizationId).toMatchObject({ format: 'uuid' })
    expect(body('post', '/api/needs/public').properties.organizationSlug).toMatchObject({
      pattern: '^[a-z0-9]+(-[a-z0-9]+)*$',
      maxLength: 63,
    })
    expect(body('post', '/api/needs/public').properties.description).toMatchObject({ minLength: 1, maxLength: 5000 })
    expect(body('post', '/api/needs').required).toEqual(['partnerId'])
    expect(body('post', '/api/needs').properties.customFields.maxProperties).toBe(50)
    expect(body('post', '/api/needs/{id}/notes').properties.content).toMatchObject({ minLength: 1, maxLength: 5000 })
    expect(body('post', '/api/needs/{id}/sms').required).toEqual(['body'])
    expect(body('post', '/api/needs/{id}/sms').properties.body).toMatchObject({ type: 'string', minLength: 1, maxLength: 1600 })
    expect(body('post', '/api/partners').required).toEqual(expect.arrayContaining(['name', 'slaHours']))
    expect(body('post', '/api/partners').properties.name).toMatchObject({ minLength: 1, maxLength: 200 })
    expect(body('post', '/api/partners').properties.slaHours).toMatchObject({ type: 'integer', minimum: 1, maximum: 8760 })
    expect(body('put', '/api/partners/{id}').properties.keywords.maxItems).toBe(50)
    expect(body('put', '/api/needs/{id}').properties.status.enum).toEqual([
      'NEW',
      'IN_PROGRESS',
      'PENDING_INTERNAL',
      'PENDING_CLIENT',
      'RESOLVED',
      'ESCALATED',
    ])
  })

  test('lists document page and limit with their bounds, and the status filter', () => {
    for (const path of [
      '/api/needs',
      '/api/partners',
      '/api/constituents',
      '/api/constituents/{id}/needs',
      '/api/household-matches',
      '/api/members',
      '/api/needs/{id}/history',
    ]) {
      const params = Object.fromEntries((operation('get', path).parameters ?? []).map((p) => [p.name, p]))
      expect(params.page).toMatchObject({ in: 'query', required: false, schema: { minimum: 1 } })
      expect(params.limit).toMatchObject({ in: 'query', required: false, schema: { minimum: 1, maximum: 100, default: 25 } })
    }
    const status = (operation('get', '/api/needs').parameters ?? []).find((p) => p.name === 'status')
    expect(status).toMatchObject({
      style: 'form',
      explode: false,
      schema: { type: 'array', items: { enum: expect.arrayContaining(['NEW', 'IN_PROGRESS']) } },
    })
  })

  test('path ids are documented: UUIDs, except on need routes, which also take the reference number', () => {
    const id = (method: string, path: string) => (operation(method, path).parameters ?? []).find((p) => p.name === 'id')
    const uuidRoutes = [
      ['put', '/api/partners/{id}'],
      ['get', '/api/constituents/{id}'],
      ['put', '/api/constituents/{id}'],
      ['get', '/api/constituents/{id}/needs'],
      ['get', '/api/constituents/{id}/household'],
      ['post', '/api/household-matches/{id}/resolve'],
      ['put', '/api/members/{id}'],
    ]
    for (const [method, path] of uuidRoutes) {
      expect(id(method!, path!)).toMatchObject({ in: 'path', required: true, schema: { type: 'string', format: 'uuid' } })
    }
    const needRoutes = ROUTES.filter(([, path]) => path.startsWith('/api/needs/{id}'))
    expect(needRoutes).toHaveLength(6)
    for (const [method, path] of needRoutes)
      expect(id(method, path)).toMatchObject({ in: 'path', required: true, schema: { type: 'string', maxLength: 64 } })
  })

  test('rate-limited routes document 429 with Retry-After, and the RateLimit fields on every answer', () => {
    const limited = ROUTES.filter(([, , , errors]) => errors.includes(429))
      .map(([method, path]) => `${method} ${path}`)
      .filter((route) => route !== SMS)
    expect(limited.sort()).toEqual([
      'post /api/auth/accept-invite',
      'post /api/auth/login',
      'post /api/auth/password-reset',
      'post /api/auth/refresh',
      'post /api/auth/reset-password',
      'post /api/auth/session',
      'post /api/auth/session/refresh',
      'post /api/needs/public',
      'post /api/profile/password',
    ])
    for (const route of limited) {
      const [method, path] = route.split(' ') as [string, string]
      for (const [status, response] of Object.entries<{ headers?: Record<string, { schema: Schema }> }>(
        operation(method, path).responses!,
      )) {
        const own = status === '429' ? ['Retry-After'] : status === '401' ? ['WWW-Authenticate'] : []
        expect(Object.keys(response.headers ?? {}).sort()).toEqual(['RateLimit', 'RateLimit-Policy', ...own].sort())
      }
      expect(operation(method, path).responses!['429'].headers['Retry-After'].schema).toMatchObject({ type: 'integer', minimum: 1 })
    }
    expect(Object.keys(operation('get', '/api/needs').responses!['200'].headers)).not.toContain('RateLimit')
  })

  const SMS = 'post /api/needs/{id}/sms'
  test('texting, limited per member and per number rather than per address, documents 429 with Retry-After only', () => {
    const responses = operation('post', '/api/needs/{id}/sms').responses!
    expect(Object.keys(responses['429'].headers)).toEqual(['Retry-After'])
    expect(responses['429'].headers['Retry-After'].schema).toMatchObject({ type: 'integer', minimum: 1 })
    expect(responses['202'].headers).toBeUndefined()
  })

  test('the anonymous intake answer leaves out what would tell a stranger who else is on file', () => {
    const schema = Object.values<{ schema: Schema }>(operation('post', '/api/needs/public').responses!['201'].content)[0]!.schema
    for (const hidden of ['duplicateWarning', 'constituentId', 'householdId']) expect(schema.properties).not.toHaveProperty(hidden)
    expect(schema.properties).toHaveProperty('referenceNumber')
  })
  test('constituent fields carry their formats and limits, the same on create, update and merge', () => {
    const body = (method: string, path: string) => operation(method, path).requestBody!.content['application/json']!.schema
    const types = (node: Schema) => [node.type].flat()
    const create = body('post', '/api/constituents')
    const update = body('put', '/api/constituents/{id}')
    const overrides = body('post', '/api/constituents/merge').properties.fieldOverrides
    expect(overrides.additionalProperties).toBe(false)
    expect(body('post', '/api/household-matches/{id}/resolve').properties.fieldOverrides).toEqual(overrides)
    for (const { properties } of [create, update, overrides]) {
      expect(properties.phone).toMatchObject({ pattern: '^\\+[1-9][0-9]{1,14}$', maxLength: 16 })
      expect(properties.email).toMatchObject({ maxLength: 254 })
      expect(properties.addressZip).toMatchObject({ pattern: '^[0-9]{5}$', maxLength: 5 })
      const state = new RegExp((properties.addressState.pattern ?? properties.addressState.anyOf?.find((b: Schema) => b.pattern)?.pattern)!)
      for (const code of ['NY', 'CA', 'DC', 'PR']) expect(state.test(code)).toBe(true)
      for (const code of ['ZZ', 'ny', 'NYC']) expect(state.test(code)).toBe(false)
      expect(properties.dateOfBirth).toMatchObject({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', maxLength: 10 })
      for (const name of ['firstName', 'lastName', 'addressStreet', 'addressCity'])
        expect(properties[name]).toMatchObject({ maxLength: 200 })
      for (const node of Object.values<Schema>(properties)) expect(types(node)).toContain('string')
    }
    expect(create.required ?? []).toEqual([])
    expect(create.properties.householdId).toMatchObject({ type: 'string', format: 'uuid' })
    for (const name of ['phone', 'firstName', 'dateOfBirth']) expect(types(create.properties[name])).toEqual(['string'])
    expect(update.properties).not.toHaveProperty('householdId')
    // null clears a field on update and in fieldOverrides, where names take no null.
    for (const name of ['firstName', 'phone', 'email', 'addressStreet', 'addressZip', 'dateOfBirth'])
      expect(types(update.properties[name])).toContain('null')
    for (const name of ['phone', 'email', 'addressCity', 'dateOfBirth']) expect(types(overrides.properties[name])).toContain('null')
    for (const name of ['firstName', 'lastName']) expect(types(overrides.properties[name])).toEqual(['string'])
    expect(body('post', '/api/constituents/merge').required).toEqual(expect.arrayContaining(['sourceConstituentId', 'targetConstituentId']))
    const resolve = body('post', '/api/household-matches/{id}/resolve')
    expect(resolve.required).toEqual(['action'])
    expect(resolve.properties.action.enum).toEqual(['MERGE_CONSTITUENT', 'MERGE_HOUSEHOLD', 'DISMISS'])
    const status = (operation('get', '/api/household-matches').parameters ?? []).find((p) => p.name === 'status')
    expect(status.schema.enum).toEqual(['OPEN', 'RESOLVED', 'DISMISSED'])
  })

  test('members, profile and accept-invite bodies carry the contract’s rules', () => {
    const body = (method: string, path: string) => operation(method, path).requestBody!.content['application/json']!.schema
    const invite = body('post', '/api/members')
    expect(invite.required).toEqual(['email', 'role'])
    expect(invite.properties.role.enum).toEqual(['org_admin', 'partner_admin', 'partner_agent', 'staff', 'volunteer'])
    const profiles = ['needs_processor', 'intake_staff', 'sms_communicator', 'email_phone_communicator', 'pii_reader', 'duplicate_resolver']
    for (const schema of [invite, body('put', '/api/members/{id}')]) {
      expect(schema.properties.profiles.items.enum).toEqual(profiles)
      expect(schema.properties.phone).toMatchObject({ pattern: '^\\+[1-9][0-9]{1,14}$', maxLength: 16 })
      expect(schema.properties.partnerId).toMatchObject({ format: 'uuid' })
    }
    // PUT is a partial update (docs/api.md "Updates"): nothing is required.
    expect(body('put', '/api/members/{id}').required ?? []).toEqual([])
    expect([body('put', '/api/members/{id}').properties.phone.type].flat()).toContain('null')
    expect(body('put', '/api/profile').required ?? []).toEqual([])
    expect(Object.keys(body('put', '/api/profile').properties).sort()).toEqual(['fullName', 'language', 'notifications', 'phone'])
    const accept = body('post', '/api/auth/accept-invite')
    expect(accept.required).toEqual(expect.arrayContaining(['token', 'password']))
    expect(accept.properties.password.minLength).toBe(12)
    // What a member looks like never includes its password hash.
    const member = Object.values<{ schema: Schema }>(operation('post', '/api/members').responses!['201'].content)[0]!.schema
    expect(member.required).toEqual(expect.arrayContaining(['id', 'email', 'role', 'isConfirmed']))
    expect(member.properties).not.toHaveProperty('passwordHash')
    expect(member.properties).toHaveProperty('partnerName')
  })

  test('organization and email settings bodies carry the contract’s limits; the key is never answered', () => {
    const body = (method: string, path: string) => operation(method, path).requestBody!.content['application/json']!.schema
    const settings = body('put', '/api/organizations/settings')
    expect(settings.required ?? []).toEqual([])
    expect(settings.properties.slug).toMatchObject({ pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', maxLength: 63 })
    expect(settings.properties.shortCode).toMatchObject({ pattern: '^[A-Z]{4,6}$' })
    expect(settings.properties.maxConcurrency).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000 })
    expect(settings.properties.tcrStatus).toMatchObject({ maxLength: 64 })
    expect(settings.properties).not.toHaveProperty('phoneNumber')
    const email = body('put', '/api/organizations/settings/email')
    // The key may be left out: the one kept serves, for its own provider (docs/api.md "Organization settings").
    expect(email.required).toEqual(['provider', 'fromEmail'])
    expect(email.properties.apiKey).toMatchObject({ minLength: 1, maxLength: 2000 })
    expect(email.properties.provider.enum).toEqual(['smtp', 'postmark', 'ses', 'sendgrid'])
    const probe = body('post', '/api/organizations/settings/email/test')
    expect(probe.required).toEqual(['provider', 'fromEmail', 'toEmail'])
    for (const [method, path] of [
      ['get', '/api/organizations/settings/email'],
      ['put', '/api/organizations/settings/email'],
    ] as const) {
      const answer = Object.values<{ schema: Schema }>(operation(method, path).responses!['200'].content)[0]!.schema
      expect(Object.keys(answer.properties).sort()).toEqual(['apiKeyLast4', 'fromEmail', 'fromName', 'provider', 'updatedAt'])
    }
    const tested = Object.values<{ schema: Schema }>(
      operation('post', '/api/organizations/settings/email/test').responses!['200'].content,
    )[0]!.schema
    expect(tested.required).toEqual(['delivered'])
  })
})

describe('SMS in the OpenAPI document (docs/api.md "SMS")', () => {
  const content = (response: any) => Object.values<{ schema: Schema }>(response.content)[0]!.schema

  test('a queued text answers its interactionId', () => {
    const answer = content(operation('post', '/api/needs/{id}/sms').responses!['202'])
    expect(answer.required).toEqual(['interactionId'])
    expect(answer.properties.interactionId).toMatchObject({ type: 'string', format: 'uuid' })
  })

  test('interactions carry the delivery status and the provider message id', () => {
    const item = content(operation('get', '/api/needs/{id}/interactions').responses!['200']).items
    expect(item.properties.deliveryStatus.enum).toEqual(['queued', 'sent', 'delivered', 'failed'])
    expect(item.properties.providerMessageId.type).toBe('string')
    expect(item.required).not.toContain('deliveryStatus')
  })

  test.each([...WEBHOOKS])('%s takes a bounded set of string parameters', (path) => {
    const schema = operation('post', path).requestBody!.content[Object.keys(operation('post', path).requestBody!.content)[0]!]!.schema
    expect(schema.type).toBe('object')
    expect(schema.maxProperties).toBeLessThanOrEqual(100)
    for (const value of Object.values<Schema>(schema.patternProperties ?? {}))
      expect(value).toMatchObject({ type: 'string', maxLength: 5000 })
  })
})
