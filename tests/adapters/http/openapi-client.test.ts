import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import openapiTS, { astToString } from 'openapi-typescript'
import { takeOnANeed } from '../../openapi-client/workflow'
import { startTestServer, type TestServer } from '../../support/http'

// docs/api.md "The OpenAPI document": a typed client generated from the served document works.
// tests/openapi-client/schema.d.ts is what openapi-typescript makes of the document; the client workflow beside it
// is type-checked against it here (and by the project's typecheck). After an API change, regenerate it with
//   UPDATE_OPENAPI_TYPES=1 bun test tests/adapters/http/openapi-client.test.ts
const CLIENT = join(import.meta.dir, '../../openapi-client')
const SCHEMA = join(CLIENT, 'schema.d.ts')

let api: TestServer
beforeAll(async () => {
  api = await startTestServer()
})
afterAll(() => api.stop())

describe('a client generated from the OpenAPI document', () => {
  test('the kept types are what openapi-typescript generates from the served document', async () => {
    const document = await api.call('GET', '/api/openapi.json')
    const generated = astToString(await openapiTS(document.body))
    if (process.env.UPDATE_OPENAPI_TYPES === '1') await Bun.write(SCHEMA, generated)
    expect(await Bun.file(SCHEMA).text()).toBe(generated)
  })

  test('the client workflow type-checks against them', () => {
    const tsc = Bun.spawnSync(
      ['node_modules/typescript-native/bin/tsc', '--ignoreConfig', '--noEmit', '--strict', '--noUncheckedIndexedAccess', '--skipLibCheck', '--target', 'ES2022', '--module', 'ESNext', '--moduleResolution', 'bundler', '--lib', 'ES2022,DOM', '--types', 'bun', join(CLIENT, 'workflow.ts')],
      { cwd: join(import.meta.dir, '../../..') },
    )
    expect({ exitCode: tsc.exitCode, output: tsc.stdout.toString() + tsc.stderr.toString() }).toEqual({ exitCode: 0, output: '' })
  })

  test('and works against the server: a need taken on by its reference number, its history, its person', async () => {
    const token = await api.tokenFor(api.world, 'org_admin')
    expect(await takeOnANeed(api.url, token)).toEqual({
      status: 'IN_PROGRESS',
      history: ['status: - → NEW', 'status: NEW → IN_PROGRESS'],
      firstName: 'Grace',
      notFound: 'Need not found',
    })
  })
})
