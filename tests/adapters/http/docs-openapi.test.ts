import { createConfig, lintFromString } from '@redocly/openapi-core'
import { describe, expect, test } from 'bun:test'
import { PORTS } from '../../../src/main/container'
import { owaspErrors } from '../../openapi-lint/owasp-ruleset'
import { api, doc, openDocsServer, type Operation, operation, type Schema, served } from './docs-support'
import { nameOf, ROUTES } from '../../support/routes'

// docs/self-hosting.md (docs) and docs/api/conventions.md "Errors" (bounded inputs, security marks) on the served OpenAPI
// document: that it passes both linters, lists every route and nothing else, marks each route's security and
// error answers, and bounds every body, since clients and reviewers take the document at its word.
openDocsServer()

const INVENTORY = 'tests/support/routes.ts ROUTES'

/** Every schema inside `schema` with its JSON path (the free values of customFields have no schema). */
function* walk(schema: Schema, path = ''): Generator<[string, Schema]> {
  yield [path, schema]
  for (const [name, child] of Object.entries<Schema>(schema.properties ?? {})) yield* walk(child, `${path}/${name}`)
  if (schema.items) yield* walk(schema.items, `${path}[]`)
  for (const branch of schema.anyOf ?? []) yield* walk(branch, path)
}

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

  test('has no error under Spectral’s OWASP ruleset, but for the exceptions of tests/openapi-lint (docs/api/openapi.md "OpenAPI lint")', async () => {
    const errors = (await owaspErrors(served)).map(({ rule, path, message }) => `${rule} at ${path}: ${message}`)
    expect(errors).toEqual([])
  }, 120_000) // Spectral's rules over the whole document: about 8 s alone, past 30 s beside a second suite.

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
    const listed = ROUTES.map(nameOf)
    expect([
      ...documented
        .filter((route) => !listed.includes(route))
        .map((route) => `route ${route} is served but not in ${INVENTORY}: add it with its permission`),
      ...listed.filter((route) => !documented.includes(route)).map((route) => `route ${route} is in ${INVENTORY} but not served`),
    ]).toEqual([])
    expect(listed).toHaveLength(new Set(listed).size)
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

  const SECURITY = { anyone: [], twilio: [{ twilioSignature: [] }], member: [{ bearer: [] }] }
  test.each(ROUTES.map((r) => [nameOf(r), r] as const))('%s carries the right security requirement', (_route, { method, path, access }) => {
    expect(operation(method, path).security).toEqual(Array.isArray(access) ? SECURITY.member : SECURITY[access])
  })

  test.each(ROUTES.map((r) => [nameOf(r), r] as const))(
    '%s documents its error answers as problems',
    (_route, { method, path, errors }) => {
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
    },
  )

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

  // Imports take a CSV file (docs/api/exports-import.md "Import"): their body has a test of its own.
  const bodyRoutes = ROUTES.filter((r) => r.body !== 'none' && r.body !== 'csv').map((r) => [r.method, r.path, r.body] as const)

  test.each(bodyRoutes.filter(([, , body]) => body !== 'form'))('%s %s has a strict JSON request body', (method, path) => {
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
})
