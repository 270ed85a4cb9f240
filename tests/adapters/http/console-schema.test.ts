import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import openapiTS, { astToString } from 'openapi-typescript'
import { startTestServer, type TestServer } from '../../support/http'
import { typeCheckProject } from '../../support/type-check'

// docs/console.md: the console is written against the types openapi-typescript generates from the served
// document, kept in console/schema.d.ts. After an API change, regenerate them with
//   UPDATE_OPENAPI_TYPES=1 bun test tests/adapters/http/console-schema.test.ts
const ROOT = join(import.meta.dir, '../../..')
const SCHEMA = join(ROOT, 'console/schema.d.ts')

let api: TestServer
beforeAll(async () => {
  api = await startTestServer()
})
afterAll(() => api.stop())

describe("the console's client", () => {
  test('its kept types are what openapi-typescript generates from the served document', async () => {
    const document = await api.call('GET', '/api/openapi.json')
    const generated = astToString(await openapiTS(document.body))
    if (process.env.UPDATE_OPENAPI_TYPES === '1') await Bun.write(SCHEMA, generated)
    expect(await Bun.file(SCHEMA).text()).toBe(generated)
  })

  test('the console type-checks against them', () => {
    expect(typeCheckProject('console')).toEqual({ exitCode: 0, output: '' })
  })
})
