import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import { postForm } from './helpers'

// docs/api/access.md "Rate limits": every per-address limit counts an IPv6 client by its /64, behind a trusted proxy
// here so each request can name its address. 2 requests per minute each.
let api: TestServer
let organizationSlug: string
beforeAll(async () => {
  api = await startTestServer({ TRUST_PROXY: 'true', PUBLIC_INTAKE_RATE_LIMIT: '2', AUTH_RATE_LIMIT: '2' })
  organizationSlug = (await api.world.repositories.organizations.findById(api.world.organizationId))!.slug
})
afterAll(() => api.stop())

const from = (address: string) => ({ 'x-forwarded-for': address })
const routes = {
  'the public intake': (address: string) =>
    api.call('POST', '/api/needs/public', { body: { organizationSlug, description: 'food' }, headers: from(address) }),
  'the auth routes': (address: string) =>
    api.call('POST', '/api/auth/refresh', { body: { refreshToken: 'not-a-token' }, headers: from(address) }),
  "the intake page's form": (address: string) =>
    postForm(api, `/intake/${organizationSlug}`, { description: 'food' }, { 'sec-fetch-site': 'same-origin', ...from(address) }),
  "the password pages' forms": (address: string) =>
    postForm(api, '/reset-password', { token: 'x', password: 'whatever it is' }, { 'sec-fetch-site': 'same-origin', ...from(address) }),
}

/** A fresh quota for each case: the windows are one minute long. */
const nextWindow = () => api.world.clock.advance(60_000)
let block = 0
/** A /64 no other case used, and an address in it with the given interface id (its last 64 bits). */
const newBlock = () => {
  const prefix = `2001:db8:${(++block).toString(16)}:1`
  return (interfaceId: string) => `${prefix}:${interfaceId}`
}

describe.each(Object.entries(routes))('%s', (_, send) => {
  test('rotating the interface id inside one /64 does not escape the limit', async () => {
    nextWindow()
    const inBlock = newBlock()
    const statuses = [
      (await send(inBlock('0:0:0:1'))).status,
      (await send(inBlock('a:b:c:d'))).status,
      (await send(inBlock('ffff:ffff:ffff:ffff'))).status,
    ]
    expect(statuses[0]).not.toBe(429)
    expect(statuses[1]).not.toBe(429)
    expect(statuses[2]).toBe(429)
  })

  test('two /64s do not share a quota', async () => {
    nextWindow()
    const [one, two] = [newBlock(), newBlock()]
    for (const address of [one('0:0:0:1'), one('0:0:0:2')]) expect((await send(address)).status).not.toBe(429)
    for (const address of [two('0:0:0:1'), two('0:0:0:2')]) expect((await send(address)).status).not.toBe(429)
  })

  test('IPv4 addresses count one by one, an IPv4-mapped IPv6 address as its IPv4 address', async () => {
    nextWindow()
    for (const address of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) expect((await send(address)).status).not.toBe(429)
    expect((await send('192.0.2.1')).status).not.toBe(429)
    expect((await send('::ffff:192.0.2.1')).status).toBe(429)
  })
})
