import { describe, expect, test } from 'bun:test'
import { connect } from 'node:net'
import { admin, api, openConventionsServer } from './conventions-support'
import { JSON_BODY_ROUTES, pathWith } from '../../support/routes'
import { expectBadRequest, expectProblem, UNKNOWN_ID } from './helpers'

// docs/api/conventions.md "Errors" (HTTP conventions) for request bodies on every route that takes one, over real HTTP:
// what cannot be read is a 400 or 413 before any use case runs, and the server goes on serving.
// The routes with a body are those of tests/support/routes.ts, at an id no record has (a body is read before any lookup).
openConventionsServer()

/** Every route with a JSON body (tests/support/routes.ts): method, path, whether it needs a token, and the title of its 400. */
const bodyRoutes = () =>
  JSON_BODY_ROUTES.map(
    (r) => [r.method, pathWith(r, UNKNOWN_ID), r.access !== 'anyone', 'Bad request', r.body === 'optional json'] as const,
  )

describe('400, never 422', () => {
  test('malformed JSON, an empty body, a non-object body and an unknown property are 400 on every body route', async () => {
    for (const [method, path, needsToken, title, optional] of bodyRoutes()) {
      const token = needsToken ? admin : undefined
      // A body that may be left out is taken empty, and (today) so is any JSON that is not an object.
      const notAnObject = [{ raw: '' }, { body: [] }, { body: 'text' }, { body: 42 }]
      const cases = [
        { raw: '{"a":', headers: { 'content-type': 'application/json' } },
        ...(optional ? [] : notAnObject),
        { body: { surely_unknown_property: true } },
      ]
      for (const options of cases) {
        const response = await api.call(method, path, { token, ...options })
        expect(response.status).not.toBe(422)
        expectBadRequest(response, undefined, title)
      }
    }
  })

  test('a body that does not say it is JSON is 415, not read (media-types.test.ts has the rest)', async () => {
    const response = await api.call('POST', '/api/needs', {
      token: admin,
      raw: JSON.stringify({ partnerId: api.world.defaultPartner.id }),
      headers: { 'content-type': 'text/plain' },
    })
    expect(response.status).toBe(415)
  })
})

describe('413 for a body over 256 KiB', () => {
  const oversized = (bytes: number) => JSON.stringify({ pad: 'x'.repeat(bytes) })

  test('is a problem on every body route, and the connection is closed', async () => {
    for (const [method, path, needsToken] of bodyRoutes()) {
      const response = await api.call(method, path, { token: needsToken ? admin : undefined, raw: oversized(256 * 1024) })
      expectProblem(response, 413, 'Payload too large')
      expect(response.headers.get('connection')).toBe('close')
    }
  })

  test('is a problem however large the body is', async () => {
    for (const size of [300 * 1024, 2 * 1024 * 1024]) {
      expectProblem(await api.call('POST', '/api/needs', { token: admin, raw: oversized(size) }), 413, 'Payload too large')
    }
  })

  test('is a problem for a body sent without Content-Length (chunked)', async () => {
    const chunked = (size: number) =>
      new ReadableStream({
        start(controller) {
          const chunk = new TextEncoder().encode('x'.repeat(64 * 1024))
          for (let sent = 0; sent < size; sent += chunk.byteLength) controller.enqueue(chunk)
          controller.close()
        },
      })
    const headers = { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }
    const response = await fetch(`${api.url}/api/needs`, { method: 'POST', body: chunked(320 * 1024), headers })
    expect(response.status).toBe(413)
    expect(response.headers.get('content-type')).toStartWith('application/problem+json')
    expect(await response.json()).toMatchObject({ status: 413, title: 'Payload too large' })

    const small = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(JSON.stringify({ partnerId: api.world.defaultPartner.id })))
        controller.close()
      },
    })
    const accepted = await fetch(`${api.url}/api/needs`, { method: 'POST', body: small, headers })
    expect(accepted.status).toBe(201)
  })

  test('a body just under the limit is read (and judged on its content)', async () => {
    const raw = JSON.stringify({ partnerId: api.world.defaultPartner.id, customFields: { pad: 'x'.repeat(250 * 1024) } })
    expectBadRequest(await api.call('POST', '/api/needs', { token: admin, raw }), '/customFields')
  })

  test('the server keeps serving afterwards', async () => {
    await api.call('POST', '/api/needs', { token: admin, raw: oversized(300 * 1024) })
    expect((await api.call('GET', '/api/needs', { token: admin })).status).toBe(200)
  })
})

describe('NUL characters', () => {
  test('a body holding a NUL character is 400 on any route, as escape or raw, and nothing is stored', async () => {
    const token = await api.tokenFor(api.world, 'org_admin')
    for (const raw of [
      '{"partnerId":"x","customFields":{"note":"a\\u0000b"}}',
      `{"customFields":{"note":"a${String.fromCharCode(0)}b"}}`,
    ]) {
      const response = await api.call('POST', '/api/needs', { token, raw, headers: { 'content-type': 'application/json' } })
      expect(response.status).toBe(400)
      expect(String(response.body.detail)).toContain('NUL')
    }
    const list = await api.call('GET', '/api/needs', { token })
    expect(list.body.some((need: { customFields: Record<string, unknown> }) => String(need.customFields.note ?? '').includes('a'))).toBe(
      false,
    )
  })
})

describe('deeply nested JSON', () => {
  const nestedArrays = (levels: number) => '['.repeat(levels) + ']'.repeat(levels)

  test('a body nested deeper than 64 levels is a 400 problem on every body route, anonymous or not, however deep', async () => {
    for (const [method, path, needsToken, title] of bodyRoutes()) {
      for (const levels of [65, 20_000, 120_000]) {
        const response = await api.call(method, path, { token: needsToken ? admin : undefined, raw: nestedArrays(levels) })
        // An anonymous caller of a protected route learns only that it needs a token.
        if (!needsToken || levels === 65) {
          const body = expectBadRequest(response, undefined, title)
          expect(String(body.detail)).toContain('64 levels')
        }
        expect(response.headers.get('x-request-id')).toBeTruthy()
      }
    }
  })

  test('customFields nested 64 levels is judged on its content; 65 and 60,000 levels are 400 naming it, and nothing is stored', async () => {
    const nestedFields = (levels: number) => `{"partnerId":"${api.world.defaultPartner.id}","customFields":{"a":${nestedArrays(levels)}}}`
    // The body's own object and customFields count as two levels.
    expect((await api.call('POST', '/api/needs', { token: admin, raw: nestedFields(62) })).status).toBe(201)
    const before = (await api.call('GET', '/api/needs', { token: admin })).headers.get('x-total-count')
    for (const levels of [63, 60_000]) {
      expectBadRequest(await api.call('POST', '/api/needs', { token: admin, raw: nestedFields(levels) }))
    }
    expect((await api.call('GET', '/api/needs', { token: admin })).headers.get('x-total-count')).toBe(before)
  })
})

/** Sends raw bytes to the server and answers everything it writes back before closing (bounded). */
function rawExchange(request: string): Promise<string> {
  const { hostname, port } = new URL(api.url)
  return new Promise((resolve) => {
    let answer = ''
    const socket = connect(Number(port), hostname, () => socket.write(request))
    socket.on('data', (chunk) => (answer += chunk))
    socket.on('close', () => resolve(answer))
    setTimeout(() => socket.destroy(), 2_000)
  })
}

describe('requests Bun refuses before the app sees them', () => {
  // Bun's HTTP parser answers these itself and offers no hook to answer instead (docs/reliability.md):
  // pinned here so that a Bun upgrade that changes it is noticed.
  test('a malformed or duplicated Content-Length is a bare 400 that closes the connection, and the server keeps serving', async () => {
    for (const header of ['Content-Length: abc', 'Content-Length: -1', 'Content-Length: 1e3', 'Content-Length: 5\r\nContent-Length: 6']) {
      const answer = await rawExchange(`POST /api/auth/login HTTP/1.1\r\nHost: x\r\n${header}\r\n\r\nhello`)
      expect(answer).toBe('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n')
    }
    expect((await api.call('GET', '/healthz')).status).toBe(200)
  })
})
