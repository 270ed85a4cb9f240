import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { startTestServer, type ApiResponse, type TestServer } from '../../support/http'

// docs/reliability.md "Fuzzing": every route of the OpenAPI document, anonymous and as an org_admin, with
// hostile bodies, queries and path parameters. Whatever comes in: no 5xx, every 4xx is problem+json, every
// answer carries X-Request-Id, and none takes a second. FUZZ_RUNS and FUZZ_SEED make a longer run
// (`npm run fuzz`); CI runs a fixed seed.
const RUNS = Number(process.env.FUZZ_RUNS ?? 300)
const SEED = Number(process.env.FUZZ_SEED ?? 20261122)
const SLOWEST_MS = 1000

interface Operation {
  method: string
  path: string
  query: string[]
  hasBody: boolean
  properties: string[]
}

let api: TestServer
let admin: string
let operations: Operation[]
/** Ids of real records of the organization (a member who is not the admin, so the admin keeps its rights). */
let realIds: string[]

beforeAll(async () => {
  api = await startTestServer({ PUBLIC_INTAKE_RATE_LIMIT: '1000000' })
  admin = await api.tokenFor(api.world, 'org_admin')
  const need = (await api.call('POST', '/api/needs', { token: admin, body: { partnerId: api.world.defaultPartner.id } })).body
  const constituent = (await api.call('POST', '/api/constituents', { token: admin, body: { firstName: 'Fuzz', phone: '+15550199999' } }))
    .body
  const staff = await api.world.member('staff')
  realIds = [need.id, need.referenceNumber, constituent.id, api.world.defaultPartner.id, staff.memberId]
  const doc = (await api.call('GET', '/api/openapi.json')).body as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: Array<{ in: string; name: string }>
          requestBody?: { content: Record<string, { schema?: { properties?: object } }> }
        }
      >
    >
  }
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      hasBody: op.requestBody !== undefined,
      properties: Object.keys(op.requestBody?.content['application/json']?.schema?.properties ?? {}),
    })),
  )
})
afterAll(() => api.stop())

const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels)
const nestedObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`

/**
 * Text people and attackers send: unicode of every plane, control characters, NUL, lone surrogates (alone,
 * inside text, a pair reversed, half an emoji), zero-width characters and fullwidth forms (before a formula
 * opener too), huge.
 */
const hostileText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\u202eevil',
    'e\u0301',
    '𝒜𝓃𝒶',
    '🏳️‍🌈',
    'null',
    'undefined',
    '<script>',
    "' OR 1=1 --",
    '%00',
    '../../etc/passwd',
  ),
  fc.constantFrom('\ud800', '\udfff', 'Ana \ud800', 'a\udc00b', '\udc00\ud800', '\ud83d', '+1555\ud800'),
  fc.constantFrom('\u200b', '\u200b=1+1', '\u200d', '\u2060=cmd', '\ufeff', 'a\u200bb@example.org', '\u00ad'),
  fc.constantFrom('＝1+1', '＋cmd', '＠SUM(A1)', '－1', 'ｆｏｏｄ', '＜script＞', '＋１５５５０１００', '"\u200b＝1'),
  fc.integer({ min: 1, max: 300_000 }).map((n) => 'x'.repeat(n)),
)

/** Numbers at the edges, and values of every other type. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  fc.constantFrom(0, -0, -1, 1, 2 ** 31, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 1e308, -1e308, 5e-324, 0.5, true, false, null),
  fc.integer(),
  fc.double(),
  fc.constantFrom([], {}, [[[]]], { a: { b: { c: {} } } }),
  fc.jsonValue({ maxDepth: 4 }),
)

/** A body: the route's own properties with hostile values, any JSON, or raw text no JSON parser likes. */
function bodyFor(operation: Operation): fc.Arbitrary<string | undefined> {
  const ownProperties =
    operation.properties.length === 0
      ? fc.constant({})
      : fc.dictionary(fc.constantFrom(...operation.properties), fc.oneof(hostileValue, fc.constantFrom(...realIds)), {
          maxKeys: operation.properties.length,
        })
  return fc.oneof(
    { weight: 5, arbitrary: ownProperties.map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 6 }).map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.constantFrom(nested(65), nested(50_000), nestedObject(100), nestedObject(20_000)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{"a":1,"a":2}',
        '{"partnerId":"\\ud800"}',
        '{"\\ud800":1}',
        '{"customFields":{"\\udfff":"x","a":["\\ud800"]}}',
        '{"x":1e999}',
        '{"x":-0}',
        '{"x":9007199254740993}',
        '{',
        '{"a":',
        'null',
        '"\\u0000"',
        '\u0000',
        '',
      ),
    },
    { weight: 1, arbitrary: hostileText },
    { weight: 1, arbitrary: fc.constant(undefined) },
  )
}

const pathValue = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) }, // a real id
  { weight: 1, arbitrary: fc.uuid() },
  { weight: 2, arbitrary: hostileText.filter((s) => s.length < 2_000) },
  { weight: 1, arbitrary: fc.constantFrom('REQ-1001', 'req-1', '%2e%2e', '..', '0', '-1') },
)

const queryValue = fc.oneof(
  hostileText.filter((s) => s.length < 4_000),
  fc.constantFrom('-1', '0', '1e309', '99999999999999999999', '0x10', ' 1', '1.5', 'NaN', 'NEW,NEW', 'open'),
)

interface FuzzRequest {
  token: boolean
  /** For each path parameter: a value, or undefined for a real id (picked by the number). */
  ids: Array<[string | undefined, number]>
  query: Record<string, string>
  body: string | undefined
  contentType: string | undefined
}

/** Every byte percent-encoded, as a client must send text that is not valid UTF-16 (lone surrogates become U+FFFD). */
const encodePathSegment = (value: string) =>
  [...Buffer.from(value, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('')

function requestFor(operation: Operation): fc.Arbitrary<FuzzRequest> {
  return fc.record({
    token: fc.boolean(),
    ids: fc.array(fc.tuple(pathValue, fc.nat()), { minLength: 2, maxLength: 2 }),
    query: fc.dictionary(operation.query.length ? fc.constantFrom(...operation.query) : fc.constant('page'), queryValue, { maxKeys: 3 }),
    body: operation.hasBody ? bodyFor(operation) : fc.constant(undefined),
    contentType: fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', undefined),
  })
}

async function send(operation: Operation, request: FuzzRequest): Promise<{ response: ApiResponse; ms: number; url: string }> {
  let slot = 0
  const path = operation.path.replace(/\{[^}]+\}/g, () => {
    const [value, pick] = request.ids[slot++ % request.ids.length]!
    return encodePathSegment(value ?? realIds[pick % realIds.length]!)
  })
  const query = new URLSearchParams(request.query).toString()
  const url = `${path}${query ? `?${query}` : ''}`
  const started = performance.now()
  const response = await api.call(operation.method, url, {
    ...(request.token ? { token: admin } : {}),
    ...(request.body !== undefined ? { raw: request.body } : {}),
    headers: request.contentType ? { 'content-type': request.contentType } : {},
  })
  return { response, ms: performance.now() - started, url }
}

function expectSane(operation: Operation, { response, ms, url }: { response: ApiResponse; ms: number; url: string }) {
  const where = `${operation.method} ${url.slice(0, 200)}`
  expect({ where, status: response.status < 500 }).toEqual({ where, status: true })
  expect({ where, requestId: Boolean(response.headers.get('x-request-id')) }).toEqual({ where, requestId: true })
  if (response.status >= 400)
    expect({ where, type: response.headers.get('content-type') }).toEqual({ where, type: 'application/problem+json' })
  expect({ where, fast: ms < SLOWEST_MS }).toEqual({ where, fast: true })
}

describe('fuzzing every route', () => {
  test('the document lists the routes to fuzz', () => {
    expect(operations.length).toBeGreaterThan(30)
  })

  test('hostile bodies on every route with a body: no 5xx, 4xx as problem+json, each within a second', async () => {
    for (const operation of operations.filter((o) => o.hasBody)) {
      for (const body of [
        nested(65),
        nested(50_000),
        nestedObject(30_000),
        '{"a":1,"a":2}',
        '"\\ud800"',
        `{"x":"${'y'.repeat(250_000)}"}`,
        '\u0000',
      ]) {
        for (const token of [true, false]) {
          expectSane(
            operation,
            await send(operation, {
              token,
              ids: [
                [undefined, 0],
                [undefined, 1],
              ],
              query: {},
              body,
              contentType: 'application/json',
            }),
          )
        }
      }
    }
  })

  test(
    `random requests (${RUNS} runs, seed ${SEED}): no 5xx, 4xx as problem+json, each within a second`,
    async () => {
      const anyRequest = fc
        .constantFrom(...operations)
        .chain((operation) => requestFor(operation).map((request) => ({ operation, request })))
      await fc.assert(
        fc.asyncProperty(anyRequest, async ({ operation, request }) => {
          expectSane(operation, await send(operation, request))
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      )
    },
    30_000 + RUNS * 200,
  )
})
