import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { typeOf } from '../../../src/adapters/http/problem'
import { DUPLICATE_WARNING } from '../../../src/domain/constituents/matching'
import { PORTS } from '../../../src/main/container'
import { aNeed } from '../../support/builders'
import { startTestServer, type TestServer } from '../../support/http'

// docs/performance/answers-and-traps.md "Answers are checked in tests": the service sends answers as its
// types make them; the tests run it with CHECK_ANSWERS, so an answer its schema does not allow fails them.
let checked: TestServer
let unchecked: TestServer
beforeAll(async () => {
  ;[checked, unchecked] = await Promise.all([startTestServer(), startTestServer({ CHECK_ANSWERS: 'false' })])
})
afterAll(() => Promise.all([checked.stop(), unchecked.stop()]))

/** A need whose warning is longer than the answer's schema allows, stored past the rules that would refuse it. */
async function needPastItsSchema(api: TestServer) {
  const warning = 'Possible duplicate '.padEnd(DUPLICATE_WARNING.maxLength + 1, 'x')
  const need = aNeed({ organizationId: api.world.organizationId, partnerId: api.world.defaultPartner.id, duplicateWarning: warning })
  await api.server.container.get(PORTS.unitOfWork).run((r) => r.needs.insert(need))
  return { need, warning, admin: await api.tokenFor(api.world, 'org_admin') }
}

describe('answers and their schemas', () => {
  test('the tests check every answer: one its schema does not allow is a 500, logged by where it broke without its values', async () => {
    const { need, warning, admin } = await needPastItsSchema(checked)
    const read = await checked.call('GET', `/api/needs/${need.id}`, { token: admin })
    expect(read.status).toBe(500)
    expect(read.headers.get('content-type')).toStartWith('application/problem+json')
    expect(read.body.type).toBe(typeOf('internal'))
    const logged = checked.logs.filter((line) => line.includes('an answer does not match its schema'))
    expect(logged).toHaveLength(1)
    expect(logged[0]).toContain('response/duplicateWarning')
    expect(logged[0]).not.toContain(warning)
  })

  test('the service sends the answer as it is', async () => {
    const { need, warning, admin } = await needPastItsSchema(unchecked)
    const read = await unchecked.call('GET', `/api/needs/${need.id}`, { token: admin })
    expect({ status: read.status, warning: read.body.duplicateWarning }).toEqual({ status: 200, warning })
  })

  test('the OpenAPI document is the same either way', async () => {
    const [a, b] = await Promise.all([checked.call('GET', '/api/openapi.json'), unchecked.call('GET', '/api/openapi.json')])
    expect(a.status).toBe(200)
    expect(JSON.stringify(a.body).replaceAll(checked.url, '')).toBe(JSON.stringify(b.body).replaceAll(unchecked.url, ''))
    expect(JSON.stringify(b.body)).not.toContain('noValidate')
  })
})
