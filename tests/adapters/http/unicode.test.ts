import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import { expectBadRequest } from './helpers'

// docs/api/conventions.md "Errors": text must be valid Unicode; a lone surrogate is a 400 naming the field, the same on
// SQLite (which would store U+FFFD) and PostgreSQL (which refuses the row), and nothing of it is kept.
let api: TestServer
let admin: string
let needId: string

beforeAll(async () => {
  api = await startTestServer({ PUBLIC_INTAKE_RATE_LIMIT: '1000' })
  admin = await api.tokenFor(api.world, 'org_admin')
  needId = (await api.call('POST', '/api/needs', { token: admin, body: { partnerId: api.world.defaultPartner.id } })).body.id
})
afterAll(() => api.stop())

/** Marks every value sent here, so the log and the stores can be searched for it. */
const MARK = 'Unpaired7Kq'
const lone = `${MARK} \ud800`

describe('a lone surrogate', () => {
  /** Each case as [name, method, path, with a token, body, the field named]; built when run (ids exist by then). */
  const cases = [
    [
      'anonymous public intake, in a contact field',
      () => [
        'POST',
        '/api/needs/public',
        false,
        { organizationId: api.world.organizationId, description: `${MARK} heat`, customFields: { firstName: lone, phone: '+15550100999' } },
        '/customFields/firstName',
      ],
    ],
    [
      'anonymous public intake, in the description',
      () => ['POST', '/api/needs/public', false, { organizationId: api.world.organizationId, description: lone }, '/description'],
    ],
    [
      'a new need, deep in customFields',
      () => [
        'POST',
        '/api/needs',
        true,
        { partnerId: api.world.defaultPartner.id, customFields: { household: [{ name: lone }] } },
        '/customFields/household/0/name',
      ],
    ],
    [
      'a changed need, in a customFields key',
      () => ['PUT', `/api/needs/${needId}`, true, { customFields: { [`${MARK}\udc00`]: 'x' } }, `/customFields/${MARK}\ufffd`],
    ],
    ['a text', () => ['POST', `/api/needs/${needId}/sms`, true, { body: lone }, '/body']],
    [
      'a partner keyword',
      () => ['POST', '/api/partners', true, { name: `${MARK} Clinic`, slaHours: 24, keywords: ['food', lone] }, '/keywords/1'],
    ],
    ['a profile name', () => ['PUT', '/api/profile', true, { fullName: lone }, '/fullName']],
    ['a constituent name', () => ['POST', '/api/constituents', true, { firstName: lone }, '/firstName']],
  ] as const satisfies ReadonlyArray<readonly [string, () => readonly [string, string, boolean, unknown, string]]>

  test.each(cases)('in %s is a 400 naming the field, and nothing is stored or logged', async (_name, request) => {
    const [method, path, needsToken, body, field] = request()
    const response = await api.call(method, path, { ...(needsToken ? { token: admin } : {}), body })
    const problem = expectBadRequest(response)
    expect(problem.errors).toEqual([{ path: field, message: 'must be valid Unicode text' }])
    expect(api.logs.join('\n')).not.toContain(MARK)
    expect(Buffer.concat(await api.storedBytes()).includes(MARK)).toBe(false)
  })

  test('a surrogate pair (one character) is accepted and read back as sent', async () => {
    const response = await api.call('POST', '/api/needs/public', {
      body: { organizationId: api.world.organizationId, description: 'Ana \ud83d\ude00' },
    })
    expect(response.status).toBe(201)
    expect((await api.call('GET', `/api/needs/${response.body.id}`, { token: admin })).body.customFields.description).toBe('Ana 😀')
  })

  test('bytes that are not UTF-8 in a path or query are decoded as U+FFFD, never a server error', async () => {
    for (const path of [`/api/needs/%ED%A0%80`, '/api/constituents?q=%ED%A0%80', '/api/needs?status=%FF']) {
      expect((await api.call('GET', path, { token: admin })).status).toBeLessThan(500)
    }
  })
})
