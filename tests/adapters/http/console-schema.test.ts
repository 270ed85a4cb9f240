import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import openapiTS, { astToString } from 'openapi-typescript'
import { apiConstantsModule, type OpenApiDocument } from '../../../scripts/api-constants'
import { startTestServer, type TestServer } from '../../support/http'
import { typeCheckProject } from '../../support/type-check'

// docs/console.md: the console is written against the types openapi-typescript generates from the served
// document, kept in console/schema.d.ts, and the limits, values and fields of its request bodies, kept in
// console/api-constants.ts. After an API change, regenerate both with REGENERATE:
const REGENERATE = 'UPDATE_OPENAPI_TYPES=1 bun test tests/adapters/http/console-schema.test.ts'
const ROOT = join(import.meta.dir, '../../..')
const SCHEMA = join(ROOT, 'console/schema.d.ts')
const CONSTANTS = join(ROOT, 'console/api-constants.ts')

/** The kept file equals the generated text, written first when asked to regenerate. */
async function expectKept(path: string, generated: string) {
  if (process.env.UPDATE_OPENAPI_TYPES === '1') await Bun.write(path, generated)
  const kept = await Bun.file(path).text()
  if (kept !== generated) throw new Error(`${path} is stale: regenerate it with\n  ${REGENERATE}`)
}

let api: TestServer
beforeAll(async () => {
  api = await startTestServer()
})
afterAll(() => api.stop())

describe("the console's client", () => {
  test('its kept types are what openapi-typescript generates from the served document', async () => {
    const document = await api.call('GET', '/api/openapi.json')
    await expectKept(SCHEMA, astToString(await openapiTS(document.body)))
  })

  test('its kept constants are what scripts/api-constants.ts makes of the served document', async () => {
    const document = await api.call<OpenApiDocument>('GET', '/api/openapi.json')
    await expectKept(CONSTANTS, apiConstantsModule(document.body))
  })

  test('the console type-checks against them', () => {
    expect(typeCheckProject('console')).toEqual({ exitCode: 0, output: '' })
  })
})
