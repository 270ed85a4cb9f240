import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { takeOnANeed } from '../../openapi-client/workflow'
import { startTestServer, type TestServer } from '../../support/http'
import { typeCheckClient } from '../../support/type-check'

// docs/api/openapi.md "Clients": a typed client generated from the served document works. The types are the staff
// console's (console/schema.d.ts, what openapi-typescript makes of the document, kept in step by
// console-schema.test.ts); the client workflow is type-checked against them here (and by the project's
// typecheck) and run against the server.
const CLIENT = join(import.meta.dir, '../../openapi-client')

let api: TestServer
beforeAll(async () => {
  api = await startTestServer()
})
afterAll(() => api.stop())

describe('a client generated from the OpenAPI document', () => {
  test('the client workflow type-checks against them', () => {
    expect(typeCheckClient(join(CLIENT, 'workflow.ts'), join(import.meta.dir, '../../..'), 'bun')).toEqual({ exitCode: 0, output: '' })
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
