import { createClient } from '@hey-api/openapi-ts'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestServer, type TestServer } from '../../support/http'
import { typeCheckClient } from '../../support/type-check'

// docs/api/openapi.md "Clients": the served document is one that client generators turn into a usable SDK.
type Schema = Record<string, any>
type Operation = {
  operationId: string
  tags?: string[]
  parameters?: Schema[]
  responses: Record<string, Schema>
  description?: string
  summary?: string
}

let api: TestServer
/** The document as served, as text: bun's toMatchObject may leave its matchers in the object it was given. */
let served: string
let doc: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> }; tags: Schema[] }
const operations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method, path, ...operation })),
  )

beforeAll(async () => {
  api = await startTestServer()
  doc = (await api.call('GET', '/api/openapi.json')).body
  served = JSON.stringify(doc)
})
afterAll(() => api.stop())

/** The operationId @elysiajs/openapi makes up for a route that names none (`getApiNeedsById`). */
function madeUpOperationId(method: string, path: string): string {
  const segments = path
    .split('/')
    .filter(Boolean)
    .map((s) => (s.startsWith('{') ? `By${s.slice(1, -1)}` : s))
  return method + segments.map((s) => s.charAt(0).toUpperCase() + s.slice(1)).join('')
}

describe('the OpenAPI document, as client generators read it', () => {
  test('every operation has its own operationId, a camelCase verb a person would call, not one made up from its path', () => {
    const ids = operations().map(({ method, path, operationId }) => ({
      route: `${method} ${path}`,
      operationId,
      madeUp: operationId === madeUpOperationId(method, path),
    }))
    expect(ids.filter(({ operationId, madeUp }) => madeUp || !/^[a-z][A-Za-z0-9]*$/.test(operationId))).toEqual([])
    expect(new Set(ids.map((i) => i.operationId)).size).toBe(ids.length)
    const byRoute = Object.fromEntries(ids.map((i) => [i.route, i.operationId]))
    expect(byRoute).toMatchObject({
      'get /api/needs': 'listNeeds',
      'post /api/needs': 'createNeed',
      'get /api/needs/{id}': 'getNeed',
      'put /api/needs/{id}': 'updateNeed',
      'post /api/needs/{id}/notes': 'addNote',
      'post /api/needs/{id}/sms': 'sendSms',
      'get /api/constituents': 'searchConstituents',
      'post /api/constituents/merge': 'mergeConstituents',
      'post /api/household-matches/{id}/resolve': 'resolveHouseholdMatch',
      'post /api/auth/accept-invite': 'acceptInvite',
    })
  })

  test('names the schemas a client imports, and operations refer to them rather than copying them', () => {
    const names = Object.keys(doc.components.schemas)
    for (const name of [
      'Need',
      'NewNeed',
      'NeedUpdate',
      'Constituent',
      'Partner',
      'Member',
      'Interaction',
      'HouseholdMatch',
      'AuditEvent',
      'WebhookEndpoint',
      'OrganizationSettings',
      'Problem',
      'ValidationProblem',
    ]) {
      expect(names).toContain(name)
    }
    const answered = (method: string, path: string, status: string) =>
      Object.values<Schema>(doc.paths[path]![method]!.responses[status]!.content)[0]!.schema
    // A read adds whether its person may be texted now (NeedDetail); the list answers Need itself.
    expect(answered('get', '/api/needs/{id}', '200')).toEqual({ $ref: '#/components/schemas/NeedDetail' })
    expect(answered('get', '/api/needs', '200')).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/Need' } })
    expect(doc.components.schemas.Need!.required).toEqual(expect.arrayContaining(['id', 'status', 'referenceNumber', 'createdAt']))
    // The need's shape is written once: nowhere else in the document is a schema with all of its properties.
    const needKeys = Object.keys(doc.components.schemas.Need!.properties).sort().join()
    const copies =
      JSON.stringify(doc.paths).match(new RegExp(`"properties":\\{"${Object.keys(doc.components.schemas.Need!.properties)[0]}"`, 'g')) ?? []
    expect({ needKeys: needKeys.length > 0, copies: copies.length }).toEqual({ needKeys: true, copies: 0 })
  })

  test('every error is application/problem+json: a ValidationProblem for 400, a Problem otherwise, titled by its status', () => {
    for (const { method, path, responses } of operations()) {
      for (const [status, response] of Object.entries(responses).filter(([s]) => Number(s) >= 400)) {
        const expected = status === '400' ? 'ValidationProblem' : 'Problem'
        expect({ route: `${method} ${path} ${status}`, content: response.content }).toEqual({
          route: `${method} ${path} ${status}`,
          content: { 'application/problem+json': { schema: { $ref: `#/components/schemas/${expected}` } } },
        })
        expect(response.description).not.toStartWith('Response for status')
      }
    }
    expect(doc.components.schemas.ValidationProblem!.properties.errors.items).toEqual({ $ref: '#/components/schemas/FieldError' })
    expect(doc.components.schemas.Problem!.properties.type.enum).toContain('tag:intake.example,2026:problems/not-found')
  })

  test('401s declare WWW-Authenticate, 503s Retry-After', () => {
    for (const { method, path, responses } of operations()) {
      if (responses['401'])
        expect({
          route: `${method} ${path}`,
          authenticate: Object.keys(responses['401'].headers ?? {}).includes('WWW-Authenticate'),
        }).toEqual({ route: `${method} ${path}`, authenticate: true })
      if (responses['503']) expect(Object.keys(responses['503'].headers ?? {})).toContain('Retry-After')
    }
  })

  test('every list answer declares X-Total-Count and Link; page and limit are plain integers, the status filter a comma-separated list', () => {
    // A published HSDS directory's pages are HSDS's, their paging in the body: the documented exception.
    const lists = operations().filter((o) => (o.parameters ?? []).some((p) => p.name === 'page') && !o.path.startsWith('/hsds/'))
    expect(lists.length).toBeGreaterThanOrEqual(10)
    for (const { method, path, responses, parameters } of lists) {
      const headers = responses['200']!.headers ?? {}
      expect({ route: `${method} ${path}`, total: headers['X-Total-Count']?.schema?.type, link: headers.Link?.schema?.type }).toEqual({
        route: `${method} ${path}`,
        total: 'integer',
        link: 'string',
      })
      for (const name of ['page', 'limit']) {
        const { schema } = parameters!.find((p) => p.name === name)!
        expect(schema).not.toHaveProperty('anyOf')
        expect(schema.type).toBe('integer')
        expect(schema.default).toBeGreaterThanOrEqual(schema.minimum)
        expect(schema.default).toBeLessThanOrEqual(schema.maximum)
      }
    }
    const status = doc.paths['/api/needs']!.get!.parameters!.find((p) => p.name === 'status')!
    expect(status).toMatchObject({
      style: 'form',
      explode: false,
      schema: { type: 'array', items: { enum: expect.arrayContaining(['NEW', 'RESOLVED']) } },
    })
  })

  test('is the same when a server is first asked for it after its routes have answered (Elysia amends schemas as it compiles a route)', async () => {
    const other = await startTestServer()
    try {
      const token = await other.tokenFor(other.world, 'org_admin')
      for (const { method, path } of operations()) {
        await other.call(
          method.toUpperCase(),
          path.replace('{id}', crypto.randomUUID()),
          method === 'get' ? { token } : { token, body: {} },
        )
      }
      expect((await other.call('GET', '/api/openapi.json')).body).toEqual(JSON.parse(served))
    } finally {
      await other.stop()
    }
  })

  test('stands alone: no text points at a file the users of the binary do not have', () => {
    expect(JSON.stringify(doc)).not.toMatch(/docs\/[a-z-]+\.md/)
  })
})

describe('an SDK generated by @hey-api/openapi-ts from the served document', () => {
  let folder: string
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'intake-sdk-'))
    await createClient({
      input: JSON.parse(JSON.stringify(doc)),
      output: folder,
      plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
      logs: { level: 'silent', file: false },
    })
    cpSync(join(import.meta.dir, '../../openapi-client/hey-api/workflow.ts'), join(folder, 'workflow.ts'))
  })
  afterAll(() => rmSync(folder, { recursive: true, force: true }))

  test('exports the named types and one function per operation, named by its operationId', async () => {
    const types = await Bun.file(join(folder, 'types.gen.ts')).text()
    for (const name of ['Need', 'Constituent', 'Partner', 'Member', 'Interaction', 'Problem'])
      expect(types).toContain(`export type ${name} = {`)
    const sdk = await Bun.file(join(folder, 'sdk.gen.ts')).text()
    const functions = [...sdk.matchAll(/^export const (\w+) = /gm)].map((m) => m[1]).sort()
    expect(functions).toEqual(
      operations()
        .map((o) => o.operationId)
        .sort(),
    )
  })

  test('type-checks, with a staff workflow written against it', () => {
    expect(typeCheckClient('workflow.ts', folder, '')).toEqual({ exitCode: 0, output: '' })
  })

  test('and its createNeed, getNeed and addNote work against the server', async () => {
    const { recordAndNote } = await import(join(folder, 'workflow.ts'))
    const token = await api.tokenFor(api.world, 'org_admin')
    expect(await recordAndNote(api.url, token)).toEqual({
      sameNeed: true,
      status: 'NEW',
      note: 'Called back; delivery on Friday',
      refused: { status: 400, fields: ['/content'] },
      totalPartners: 1,
    })
  })
})
