import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import { expectProblem } from './helpers'

// docs/self-hosting.md PUBLIC_INTAKE_RATE_LIMIT and docs/api/conventions.md "Errors" (429 with Retry-After), over real HTTP: 3
// per address per
// minute here. Every request of this file comes from 127.0.0.1, so the tests run in order and the
// window is reset by moving the server's clock a minute on.
let api: TestServer

beforeAll(async () => {
  api = await startTestServer({ PUBLIC_INTAKE_RATE_LIMIT: '3' })
})
afterAll(() => api.stop())

const submit = (headers: Record<string, string> = {}) =>
  api.call('POST', '/api/needs/public', { body: { organizationId: api.world.organizationId, description: 'food' }, headers })
const nextWindow = () => api.world.clock.advance(60_000)

describe('public intake rate limit', () => {
  test('past the limit an address gets 429 Too many requests with Retry-After', async () => {
    nextWindow()
    for (let i = 0; i < 3; i++) expect((await submit()).status).toBe(201)

    const limited = await submit()
    expectProblem(limited, 429, 'Too many requests')
    const retryAfter = Number(limited.headers.get('retry-after'))
    expect(Number.isInteger(retryAfter)).toBe(true)
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(60)
  })

  test('every answer carries RateLimit-Policy and RateLimit: the quota, what is left, and when it is whole again', async () => {
    nextWindow()
    api.world.clock.advance(20_000)
    const now = api.world.clock.now().getTime()
    const reset = Math.ceil((60_000 - (now % 60_000)) / 1000)
    const answers = [await submit(), await submit(), await submit(), await submit()]
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 429])
    for (const answer of answers) expect(answer.headers.get('ratelimit-policy')).toBe('"public-intake";q=3;w=60')
    expect(answers.map((a) => a.headers.get('ratelimit'))).toEqual([2, 1, 0, 0].map((left) => `"public-intake";r=${left};t=${reset}`))
    expect(answers[3]!.headers.get('retry-after')).toBe(String(reset))
  })

  test('the address may submit again once the window has passed', async () => {
    nextWindow()
    expect((await submit()).status).toBe(201)
  })

  test('invalid requests count too, and are refused before their body is judged', async () => {
    nextWindow()
    for (let i = 0; i < 3; i++) {
      const invalid = await api.call('POST', '/api/needs/public', { body: { description: '' } })
      expect(invalid.status).toBe(400)
    }
    expectProblem(await api.call('POST', '/api/needs/public', { body: { nonsense: true } }), 429, 'Too many requests')
    expectProblem(await submit(), 429, 'Too many requests')
  })

  test('X-Forwarded-For is not trusted by default: a forged header does not escape the limit', async () => {
    nextWindow()
    for (let i = 0; i < 3; i++) expect((await submit({ 'x-forwarded-for': `203.0.113.${i}` })).status).toBe(201)
    expectProblem(await submit({ 'x-forwarded-for': '198.51.100.7' }), 429, 'Too many requests')
  })

  test('the limit covers the public intake only: staff routes and login still answer', async () => {
    nextWindow()
    for (let i = 0; i < 4; i++) await submit()
    expect((await submit()).status).toBe(429)
    const token = await api.tokenFor(api.world, 'staff')
    const staffRoute = await api.call('GET', '/api/needs', { token })
    expect(staffRoute.status).toBe(200)
    expect([staffRoute.headers.get('ratelimit'), staffRoute.headers.get('ratelimit-policy')]).toEqual([null, null])
    expect((await api.call('GET', '/healthz')).status).toBe(200)
  })
})

describe('the anonymous auth routes are limited per client address too', () => {
  test('login, refresh and accept-invite share AUTH_RATE_LIMIT: past it 429 with Retry-After, before the body is read', async () => {
    const limited = await startTestServer({ AUTH_RATE_LIMIT: '3' })
    try {
      const answers = [
        await limited.call('POST', '/api/auth/login', { body: { email: 'nobody@example.org', password: 'wrong password here' } }),
        await limited.call('POST', '/api/auth/refresh', { body: { refreshToken: 'not-a-token' } }),
        await limited.call('POST', '/api/auth/accept-invite', { body: { token: 'nope', password: 'a long enough password' } }),
        await limited.call('POST', '/api/auth/login', { raw: 'not even json' }),
      ]
      expect(answers.map((a) => a.status)).toEqual([401, 401, 400, 429])
      expect(Number(answers[3]!.headers.get('retry-after'))).toBeGreaterThan(0)
      // One quota for the three routes, announced on each answer.
      for (const answer of answers) expect(answer.headers.get('ratelimit-policy')).toBe('"auth";q=3;w=60')
      expect(answers.map((a) => a.headers.get('ratelimit')?.replace(/;t=\d+$/, ''))).toEqual([
        '"auth";r=2',
        '"auth";r=1',
        '"auth";r=0',
        '"auth";r=0',
      ])
      expect(answers[3]!.headers.get('ratelimit')).toEndWith(`;t=${answers[3]!.headers.get('retry-after')}`)
      expect(answers[3]!.body.title).toBe('Too many requests')
    } finally {
      await limited.stop()
    }
  })
})
