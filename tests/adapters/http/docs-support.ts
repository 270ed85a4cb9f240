import { afterAll, beforeAll, expect } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'

// What the docs-*.test.ts files share: one server a file, served as a deployment serves it, its OpenAPI
// document as served and with its named schemas inlined (the routes it must hold: tests/support/routes.ts).
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

export const operation = (method: string, path: string): Operation => doc.paths[path]![method.toLowerCase()]!
