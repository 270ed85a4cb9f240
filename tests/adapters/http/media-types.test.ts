import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { connect } from 'node:net'
import { startTestServer, type TestServer } from '../../support/http'
import { expectProblem } from './helpers'

// docs/api/conventions.md "Errors": JSON routes take JSON bodies only (415 otherwise), pages and Twilio's webhooks take
// forms; every answer says `X-Content-Type-Options: nosniff`; Bun itself answers a head too large with 431.
let api: TestServer
let admin: string

beforeAll(async () => {
  api = await startTestServer({ PUBLIC_INTAKE_RATE_LIMIT: '1000' })
  admin = await api.tokenFor(api.world, 'org_admin')
})
afterAll(() => api.stop())

const publicNeed = () => JSON.stringify({ organizationId: api.world.organizationId, description: 'Heating broke' })

describe('a body’s Content-Type', () => {
  test.each([
    'text/plain',
    'text/plain;charset=UTF-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/jsonp',
    'application/json-seq',
  ])('a JSON route refuses %s with 415 problem+json, and stores nothing', async (contentType) => {
    const before = (await api.call('GET', '/api/needs', { token: admin })).headers.get('x-total-count')
    const response = await api.call('POST', '/api/needs/public', { raw: publicNeed(), headers: { 'content-type': contentType } })
    expect(expectProblem(response, 415, 'Unsupported media type').type).toBe('tag:intake.example,2026:problems/unsupported-media-type')
    expect((await api.call('GET', '/api/needs', { token: admin })).headers.get('x-total-count')).toBe(before)
  })

  test('a body without a Content-Type is refused too', async () => {
    // A Blob without a type is sent without a Content-Type.
    const response = await fetch(`${api.url}/api/needs/public`, { method: 'POST', body: new Blob([publicNeed()]) })
    expect(response.status).toBe(415)
  })

  test.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/merge-patch+json'])(
    '%s is taken',
    async (contentType) => {
      expect((await api.call('POST', '/api/needs/public', { raw: publicNeed(), headers: { 'content-type': contentType } })).status).toBe(
        201,
      )
    },
  )

  test('an anonymous caller of a protected route learns only that it needs a token', async () => {
    expectProblem(await api.call('POST', '/api/needs', { raw: '{}', headers: { 'content-type': 'text/plain' } }), 401, 'Unauthorized')
  })

  test('a request without a body is unaffected, whatever its type', async () => {
    expect((await api.call('GET', '/api/needs', { token: admin, headers: { 'content-type': 'text/plain' } })).status).toBe(200)
    // An empty body is no body: the route says what it lacks.
    expect((await api.call('POST', '/api/needs/public', { raw: '', headers: { 'content-type': 'text/plain' } })).status).toBe(400)
  })

  test('the public intake page still takes its form', async () => {
    const slug = (await api.call('GET', '/api/organizations/settings', { token: admin })).body.slug
    const page = await api.call('GET', `/intake/${slug}`)
    expect(page.status).toBe(200)
    const form = new URLSearchParams({ description: 'Form-encoded, as browsers post it' })
    const posted = await api.call('POST', `/intake/${slug}`, {
      raw: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(posted.status).toBeLessThan(400)
    expect(posted.headers.get('content-type')).toStartWith('text/html')
  })
})

describe('X-Content-Type-Options: nosniff', () => {
  test('is on every answer: API, pages, docs, problems, 404s, metrics', async () => {
    const slug = (await api.call('GET', '/api/organizations/settings', { token: admin })).body.slug
    const answers = [
      await api.call('GET', '/api/needs', { token: admin }),
      await api.call('GET', '/api/needs'),
      await api.call('GET', '/no/such/route'),
      await api.call('GET', `/intake/${slug}`),
      await api.call('GET', '/reset-password?token=x'),
      await api.call('GET', '/api/docs'),
      await api.call('GET', '/api/openapi.json'),
      await api.call('GET', '/healthz'),
      await api.call('GET', '/metrics'),
      await api.call('GET', '/api/needs/export', { token: admin }),
      await api.call('POST', '/api/needs/public', { raw: 'x'.repeat(300_000) }),
      await api.call('POST', '/api/needs/public', { raw: '{}', headers: { 'content-type': 'text/plain' } }),
    ]
    for (const answer of answers)
      expect({ status: answer.status, nosniff: answer.headers.get('x-content-type-options') }).toEqual({
        status: answer.status,
        nosniff: 'nosniff',
      })
  })
})

describe('requests whose head Bun refuses', () => {
  /** One request as raw bytes, and everything the server answers before it closes the connection. */
  function rawExchange(request: string): Promise<string> {
    const { port } = new URL(api.url)
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1')
      let answer = ''
      socket.on('data', (chunk) => (answer += chunk))
      socket.on('close', () => resolve(answer))
      socket.on('error', reject)
      socket.write(request)
    })
  }

  test('a URL or headers past 16 KiB is a bare 431 that closes the connection, and the server keeps serving', async () => {
    const bare = 'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n'
    expect(await rawExchange(`GET /api/needs?q=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`)).toBe(bare)
    expect(await rawExchange(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Long: ${'a'.repeat(17_000)}\r\n\r\n`)).toBe(bare)
    expect((await api.call('GET', '/healthz')).status).toBe(200)
  })
})
