import { afterAll, beforeAll, describe, expect, spyOn, test } from 'bun:test'
import type { Need } from '../../../src/domain/needs/need'
import type { Partner } from '../../../src/domain/partners/partner'
import { PORTS } from '../../../src/main/container'
import { aNeed } from '../../support/builders'
import { parseCsv } from '../../support/csv'
import { startTestServer, TEST_DATABASE, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { expectBadRequest, expectProblem, seedConstituent } from './helpers'

// docs/api.md "Exports", over real HTTP (SQLite, and PostgreSQL with TEST_DATABASE=postgres).
let api: TestServer
let world: World
let pantry: Partner
const tokens: Record<string, string> = {}

beforeAll(async () => {
  api = await startTestServer()
  world = api.world
  pantry = await world.partner({ name: 'Pantry' })
  const other = await world.otherOrganization()
  const [admin, piiStaff, piiAgent, staff, partnerAdmin, piiVolunteer, otherAdmin] = await Promise.all([
    api.tokenFor(world, 'org_admin'),
    api.tokenFor(world, 'staff', { profiles: ['pii_reader'] }),
    api.tokenFor(world, 'partner_agent', { partnerId: pantry.id, profiles: ['pii_reader'] }),
    api.tokenFor(world, 'staff'),
    api.tokenFor(world, 'partner_admin', { partnerId: pantry.id }),
    api.tokenFor(world, 'volunteer', { partnerId: pantry.id, profiles: ['pii_reader'] }),
    api.tokenFor(other, 'org_admin'),
  ])
  Object.assign(tokens, { admin, piiStaff, piiAgent, staff, partnerAdmin, piiVolunteer, otherAdmin })
})
afterAll(() => api.stop())

/** The export as text with its answer, and its records read back by a strict RFC 4180 reader. */
async function exported(path: string, token: string) {
  const response = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${token}` } })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text}`)
  const [header, ...rows] = parseCsv(text)
  return { response, text, header: header!, rows: rows.map((row) => Object.fromEntries(header!.map((name, i) => [name, row[i]!]))) }
}

const createNeed = async (body: Record<string, unknown>, token = tokens.admin!) => {
  const response = await api.call<Record<string, any>>('POST', '/api/needs', { token, body })
  expect(response.status).toBe(201)
  world.clock.advance(1000)
  return response.body
}

describe('GET /api/needs/export', () => {
  test('answers every need the list shows, newest first, each field as the JSON answer has it, as an RFC 4180 attachment', async () => {
    const { constituentId } = await seedConstituent(api, tokens.admin!, { firstName: 'Ana', lastName: 'Export' })
    await createNeed({ partnerId: pantry.id, constituentId, customFields: { note: 'says "hi", then\r\nleaves', sum: '=1+1' } })
    await createNeed({ partnerId: world.defaultPartner.id, isConfidential: true, customFields: { story: 'private' } })
    const list = await api.call<Array<Record<string, any>>>('GET', '/api/needs?limit=100', { token: tokens.admin })
    const { response, text, header, rows } = await exported('/api/needs/export?format=csv', tokens.admin!)

    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present')
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="needs-\d{4}-\d{2}-\d{2}\.csv"$/)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(text.endsWith('\r\n')).toBe(true)
    expect(header).toEqual([
      'id',
      'referenceNumber',
      'status',
      'partnerId',
      'assignedTo',
      'constituentId',
      'householdId',
      'parentNeedId',
      'isConfidential',
      'createdBy',
      'createdAt',
      'updatedAt',
      'dueDate',
      'duplicateWarning',
      'customFields',
    ])
    expect(rows.map((row) => row.id)).toEqual(list.body.map((need) => need.id))
    for (const [i, need] of list.body.entries()) {
      const { customFields, isConfidential, ...fields } = need
      expect(rows[i]).toMatchObject(Object.fromEntries(Object.entries(fields).filter(([name]) => header.includes(name))))
      expect({ isConfidential: rows[i]!.isConfidential, customFields: JSON.parse(rows[i]!.customFields!) }).toEqual({
        isConfidential: String(isConfidential),
        customFields,
      })
    }
  })

  test('takes the list filters, and refuses a bad one, another format, paging or a missing format with 400', async () => {
    const escalated = await createNeed({ partnerId: pantry.id, status: 'ESCALATED' })
    const pending = await createNeed({ partnerId: pantry.id, status: 'PENDING_CLIENT' })
    const ids = async (query: string) => (await exported(`/api/needs/export?format=csv&${query}`, tokens.admin!)).rows.map((row) => row.id)
    expect(await ids('status=ESCALATED,PENDING_CLIENT')).toEqual([pending.id, escalated.id])
    expect(await ids(`status=ESCALATED&partnerId=${pantry.id}`)).toEqual([escalated.id])
    expect(await ids(`partnerId=${world.defaultPartner.id}&status=ESCALATED`)).toEqual([])

    const bad = (query: string) => api.call('GET', `/api/needs/export?${query}`, { token: tokens.admin })
    expectBadRequest(await bad('format=csv&status=OPEN'), 'query/status')
    expectBadRequest(await bad('format=csv&partnerId=nope'), 'query/partnerId')
    expectBadRequest(await bad('format=xlsx'), 'query/format')
    expectBadRequest(await bad(''), 'query/format')
    expectBadRequest(await bad('format=csv&page=2'), 'query/page')
  })

  test("a partner role with pii_reader exports its own partner's needs only", async () => {
    // Needs of both partners exist whatever ran before.
    await createNeed({ partnerId: world.defaultPartner.id })
    await createNeed({ partnerId: pantry.id })
    const own = await api.call<Array<{ id: string; partnerId: string }>>('GET', '/api/needs?limit=100', { token: tokens.piiAgent })
    const { rows } = await exported('/api/needs/export?format=csv', tokens.piiAgent!)
    expect(rows.map((row) => row.id)).toEqual(own.body.map((need) => need.id))
    expect(new Set(rows.map((row) => row.partnerId))).toEqual(new Set([pantry.id]))
    expect((await exported(`/api/needs/export?format=csv&partnerId=${world.defaultPartner.id}`, tokens.piiAgent!)).rows).toEqual([])
    expect((await exported('/api/needs/export?format=csv', tokens.piiVolunteer!)).rows.map((row) => row.id)).toEqual(
      own.body.map((need) => need.id),
    )
  })

  test('never holds another organization’s needs', async () => {
    await createNeed({ partnerId: pantry.id })
    const { rows } = await exported('/api/needs/export?format=csv', tokens.otherAdmin!)
    expect(rows).toEqual([])
  })

  test('is refused (403) without the export permission, and (401) without a token', async () => {
    for (const token of [tokens.staff, tokens.partnerAdmin])
      expectProblem(await api.call('GET', '/api/needs/export?format=csv', { token }), 403, 'Forbidden')
    expectProblem(await api.call('GET', '/api/needs/export?format=csv'), 401, 'Unauthorized')
  })
})

describe('GET /api/constituents/export', () => {
  test('answers what the search finds, newest first, with formula openers made inert', async () => {
    const surname = `Formula${crypto.randomUUID().slice(0, 6)}`
    const plain = await seedConstituent(api, tokens.admin!, {
      firstName: 'José',
      lastName: surname,
      phone: '+15550100002',
      email: 'jose@example.org',
      addressStreet: '1 Main St, Apt "B"',
      addressCity: 'Springfield',
      addressState: 'IL',
      addressZip: '62701',
      dateOfBirth: '1980-02-03',
    })
    world.clock.advance(1000)
    const hostile = await seedConstituent(api, tokens.admin!, {
      firstName: '=HYPERLINK("http://evil.example")',
      lastName: surname,
      addressStreet: '@SUM(A1:A9)',
      addressCity: '+1-2',
      email: 'x@example.org',
    })
    world.clock.advance(1000)
    await seedConstituent(api, tokens.admin!, { firstName: 'Someone', lastName: 'Else' })

    const { header, rows } = await exported(`/api/constituents/export?format=csv&query=${surname}`, tokens.piiStaff!)
    expect(header).toEqual([
      'id',
      'householdId',
      'firstName',
      'lastName',
      'phone',
      'email',
      'dateOfBirth',
      'addressStreet',
      'addressCity',
      'addressState',
      'addressZip',
      'createdAt',
      'updatedAt',
    ])
    expect(rows.map((row) => row.id)).toEqual([hostile.constituentId, plain.constituentId])
    expect(rows[0]).toMatchObject({
      firstName: `'=HYPERLINK("http://evil.example")`,
      addressStreet: "'@SUM(A1:A9)",
      addressCity: "'+1-2",
      phone: '',
    })
    const json = await api.call<Record<string, string>>('GET', `/api/constituents/${plain.constituentId}`, { token: tokens.piiStaff })
    // The JSON answer's fields, an E.164 phone being made inert too (it opens with +), and the times.
    const { createdAt, updatedAt, ...fields } = rows[1]!
    const expected: Record<string, string> = {
      ...Object.fromEntries(header.filter((name) => !name.endsWith('edAt')).map((name) => [name, ''])),
      ...json.body,
    }
    const actual: Record<string, string> = { ...fields, phone: fields.phone!.replace(/^'/, '') }
    expect(actual).toEqual(expected)
    expect(fields.phone).toBe("'+15550100002")
    expect(createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    expect(updatedAt).toBe(createdAt!)
    for (const row of rows) for (const cell of Object.values(row)) expect(/^[=+\-@\t\r]/.test(cell)).toBe(false)
  })

  test('makes inert a formula hidden behind quotes or zero-width characters, or spelled in fullwidth', async () => {
    const surname = `Hidden${crypto.randomUUID().slice(0, 6)}`
    const hidden = { firstName: '"=HYPERLINK(""http://evil.example"")', addressStreet: '\u200B=SUM(A1:A9)', addressCity: '\uFF1D1+1' }
    const seeded = await seedConstituent(api, tokens.admin!, {
      firstName: hidden.firstName,
      lastName: surname,
      addressStreet: hidden.addressStreet,
      addressCity: hidden.addressCity,
    })
    const { rows } = await exported(`/api/constituents/export?format=csv&query=${surname}`, tokens.piiStaff!)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      id: seeded.constituentId,
      firstName: `'${hidden.firstName}`,
      addressStreet: `'${hidden.addressStreet}`,
      addressCity: `'${hidden.addressCity}`,
    })
  })

  test('every constituent of the organization without a query, none of another organization', async () => {
    const search = await api.call<Array<{ id: string }>>('GET', '/api/constituents?limit=100', { token: tokens.admin })
    expect((await exported('/api/constituents/export?format=csv', tokens.admin!)).rows.map((row) => row.id)).toEqual(
      search.body.map((c) => c.id),
    )
    expect((await exported('/api/constituents/export?format=csv', tokens.otherAdmin!)).rows).toEqual([])
  })

  test('needs the permission to read constituents besides the export permission; a bad query or format is 400', async () => {
    for (const token of [tokens.piiVolunteer, tokens.staff, tokens.partnerAdmin])
      expectProblem(await api.call('GET', '/api/constituents/export?format=csv', { token }), 403, 'Forbidden')
    expect((await exported('/api/constituents/export?format=csv', tokens.piiAgent!)).header[0]).toBe('id')
    expectBadRequest(await api.call('GET', '/api/constituents/export?format=json', { token: tokens.admin }), 'query/format')
    expectBadRequest(
      await api.call('GET', `/api/constituents/export?format=csv&query=${'a'.repeat(201)}`, { token: tokens.admin }),
      'query/query',
    )
  })
})

describe('a database failure during an export', () => {
  /** Makes the `failing`th read of needs (from 1) fail, for one export; the reads before it answer full batches. */
  async function exportFailingAt(failing: number) {
    await createNeed({ partnerId: pantry.id })
    const repository = world.repositories.needs
    const [need] = await repository.listAfter(world.organizationId, {}, undefined, 1)
    let reads = 0
    const spy = spyOn(repository, 'listAfter').mockImplementation(async (_organizationId, _filter, _after, limit) => {
      if (++reads === failing) throw new Error('the database went away')
      return Array.from({ length: limit }, () => need!)
    })
    try {
      const response = await fetch(`${api.url}/api/needs/export?format=csv`, { headers: { authorization: `Bearer ${tokens.admin}` } })
      return {
        response,
        body: await response.text().then(
          (text) => ({ text }),
          (error: unknown) => ({ error }),
        ),
      }
    } finally {
      spy.mockRestore()
    }
  }

  test('before the first batch: a problem answer, not a file', async () => {
    const { response, body } = await exportFailingAt(1)
    expect(response.status).toBe(500)
    expect(response.headers.get('content-type')).toStartWith('application/problem+json')
    expect(body).toHaveProperty('text')
  })

  test('after the first batch: the transfer breaks, so the file is never taken for whole', async () => {
    const { response, body } = await exportFailingAt(2)
    expect(response.status).toBe(200)
    expect(body).toHaveProperty('error')
    expect(api.logs.some((line) => line.includes('export cut short') && line.includes('the database went away'))).toBe(true)
  })
})

describe('a large export', () => {
  // About 46 MB of CSV, far more than the sockets between the two ends buffer (a few MB), so a server that
  // ran ahead of its client would be seen reading most batches: 20,000 needs of 2 KB on SQLite (40 batches);
  // on PostgreSQL, where seeding row by row is slower, 5,000 of 8 KB (10 batches).
  const [count, noteSize] = TEST_DATABASE === 'sqlite' ? [20_000, 2_000] : [5_000, 8_000]

  test('streams: batches are read as the client takes the file, and every need arrives once, in order', async () => {
    const large = await world.otherOrganization()
    const partner = large.defaultPartner
    const note = 'n'.repeat(noteSize)
    const needs: Need[] = Array.from({ length: count }, (_, i) =>
      aNeed({
        organizationId: large.organizationId,
        partnerId: partner.id,
        referenceNumber: `BIG-${i}`,
        customFields: { note },
        createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000),
      }),
    )
    await large.container.get(PORTS.unitOfWork).run(async (r) => {
      for (const need of needs) await r.needs.insert(need)
    })
    const token = await api.tokenFor(large, 'org_admin')
    const reads = spyOn(world.repositories.needs, 'listAfter')
    const response = await fetch(`${api.url}/api/needs/export?format=csv`, { headers: { authorization: `Bearer ${token}` } })
    const reader = response.body!.getReader()
    try {
      const decoder = new TextDecoder()
      let text = decoder.decode((await reader.read()).value, { stream: true })
      // A client that stops reading: were the file built ahead of it, every batch would be read by now.
      await Bun.sleep(300)
      const batches = Math.ceil(count / 500) + 1
      expect(reads.mock.calls.length).toBeLessThan(batches / 2)
      for (let next = await reader.read(); !next.done; next = await reader.read()) text += decoder.decode(next.value, { stream: true })
      expect(reads).toHaveBeenCalledTimes(batches)
      const [, ...rows] = parseCsv(text)
      expect(rows.map((row) => row[1])).toEqual(needs.map((need) => need.referenceNumber).reverse())
    } finally {
      await reader.cancel()
      reads.mockRestore()
    }
  }, 30_000)
})
