import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { PORTS } from '../../../src/main/container'
import { startTestServer, type TestServer } from '../../support/http'
import { TEST_PASSWORD } from '../../support/world'
import { expectProblem } from './helpers'

// docs/api/access.md "Tokens" (login throttling) over real HTTP, on the database the tests run on: failures are stored.
let proxied: TestServer
beforeAll(async () => {
  proxied = await startTestServer({ TRUST_PROXY: 'true' })
})
afterAll(() => proxied.stop())

const loginFrom = (address: string, body: Record<string, unknown>) =>
  proxied.call<{ accessToken: string }>('POST', '/api/auth/login', { body, headers: { 'x-forwarded-for': address } })

async function newMemberEmail(): Promise<string> {
  const passwordHash = await proxied.server.container.get(PORTS.passwords).hash(TEST_PASSWORD)
  const actor = await proxied.world.member('org_admin', { passwordHash })
  return (await proxied.world.repositories.members.findById(actor.organizationId, actor.memberId))!.email
}

describe('login throttling per client address (behind a trusted proxy)', () => {
  test("a stranger's 10 failures from one address do not lock the member out of another; that address stays refused", async () => {
    const email = await newMemberEmail()
    for (let i = 0; i < 10; i++) expectProblem(await loginFrom('203.0.113.66', { email, password: `guess ${i}` }), 401, 'Unauthorized')
    expectProblem(await loginFrom('203.0.113.66', { email, password: TEST_PASSWORD }), 429, 'Too many requests')

    const member = await loginFrom('192.0.2.10', { email, password: TEST_PASSWORD })
    expect(member.status).toBe(200)
    expect((await proxied.call('GET', '/api/needs', { token: member.body.accessToken })).status).toBe(200)
    expectProblem(await loginFrom('203.0.113.66', { email, password: TEST_PASSWORD }), 429, 'Too many requests')
  })

  test('110 failures spread over 11 addresses do not lock the member out: the right password from a clean address logs in', async () => {
    const email = await newMemberEmail()
    const statuses: number[] = []
    for (let a = 0; a < 11; a++) {
      for (let i = 0; i < 10; i++) statuses.push((await loginFrom(`198.51.100.${a}`, { email, password: `guess ${i}` })).status)
    }
    // Past the email's ceiling of 100 the eleventh address has one guess, then is refused.
    expect(statuses.filter((s) => s === 401)).toHaveLength(101)
    expect(statuses.slice(101).every((s) => s === 429)).toBe(true)
    expectProblem(await loginFrom('198.51.100.3', { email, password: TEST_PASSWORD }), 429, 'Too many requests')

    expect((await loginFrom('192.0.2.77', { email, password: TEST_PASSWORD })).status).toBe(200)
  })
})
