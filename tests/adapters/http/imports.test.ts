import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { IMPORT_LIMITS } from '../../../src/domain/imports/import'
import { startTestServer, type TestServer } from '../../support/http'
import { expectBadRequest, expectProblem, seedConstituent } from './helpers'
import { CONTACT_COLUMNS, importClient, problemOf } from './import-support'

// docs/api/exports-import.md "Import", over real HTTP (SQLite, and PostgreSQL with TEST_DATABASE=postgres).
let api: TestServer

beforeAll(async () => {
  api = await startTestServer()
})
afterAll(() => api.stop())

const { freshOrganization, importing, report } = importClient(() => api)
const ownNames = (columns: readonly string[]) => ({ matched: columns.map((column) => ({ header: column, column })), unknown: [] })

const searchTotal = async (token: string) =>
  Number((await api.call('GET', '/api/constituents?limit=1', { token })).headers.get('x-total-count'))

const PEOPLE = [
  'firstName,lastName,phone,email,dateOfBirth,addressStreet,addressCity,addressState,addressZip',
  'Ana,Lima,+15035550101,,,,,,',
  'Ben,Okafor,,ben@example.org,,,,,',
  'Cleo,Park,,,1990-04-02,,,,',
  'Dev,Rao,555-0101,,,,,ZZ,',
  'Ana,Lima-Twin,+15035550101,,,,,,',
  'Eve,Stone,,,,12 Oak St,Portland,OR,97201',
  '',
].join('\r\n')

describe('POST /api/constituents/import', () => {
  test('creates the valid rows, skips an earlier row of the file, lists the errors by row and column; a second run creates nothing', async () => {
    const { token } = await freshOrganization()
    const expected = {
      dryRun: false,
      rows: 6,
      created: 4,
      skipped: 1,
      errors: [
        { row: 4, field: 'phone', message: 'must be a phone number, e.g. +1 503 555 0142 or 503 555 0142' },
        { row: 4, field: 'addressState', message: 'must be a two-letter US state or territory code such as NY' },
      ],
      columns: ownNames(CONTACT_COLUMNS),
    }
    expect(await report('constituents', PEOPLE, token)).toEqual(expected)
    expect(await searchTotal(token)).toBe(4)

    expect(await report('constituents', PEOPLE, token)).toEqual({ ...expected, created: 0, skipped: 5 })
    expect(await searchTotal(token)).toBe(4)
  })

  test('a dry run stores nothing and answers what the run then does', async () => {
    const { token } = await freshOrganization()
    const dry = await report('constituents', PEOPLE, token, true)
    expect(await searchTotal(token)).toBe(0)
    const real = await report('constituents', PEOPLE, token)
    expect(dry).toEqual({ ...real, dryRun: true })
    expect(await searchTotal(token)).toBe(real.created)
  })

  test('skips a person on file by the same phone, email, or name and date of birth, in this organization only', async () => {
    const { org, token } = await freshOrganization()
    await seedConstituent(api, token, { firstName: 'Someone', lastName: 'Else', phone: '+15035550101' })
    await seedConstituent(api, token, { firstName: 'Other', lastName: 'Name', email: 'BEN@example.org' })
    await seedConstituent(api, token, { firstName: 'cléo', lastName: 'PARK', dateOfBirth: '1990-04-02' })
    // Another organization's people are no reason to skip anyone here.
    const other = await api.tokenFor(await org.otherOrganization(), 'org_admin')
    await seedConstituent(api, other, { firstName: 'Eve', lastName: 'Stone', addressStreet: '12 Oak St', phone: '+15035550199' })

    const result = await report('constituents', PEOPLE, token)
    expect({ created: result.created, skipped: result.skipped }).toEqual({ created: 1, skipped: 4 })
  })

  test('runs duplicate detection as a creation does: a same last name and address opens a household match', async () => {
    const { token } = await freshOrganization()
    const { constituentId } = await seedConstituent(api, token, { firstName: 'Evan', lastName: 'Stone', addressStreet: '12 oak st.' })
    await report('constituents', PEOPLE, token)
    const matches = await api.call<Array<{ constituent: { id: string }; candidate: { id: string }; reasons: string[] }>>(
      'GET',
      '/api/household-matches',
      { token },
    )
    expect(matches.body).toHaveLength(1)
    expect(JSON.stringify(matches.body[0])).toContain(constituentId)
    expect(JSON.stringify(matches.body[0])).toContain('same last name and address')
  })

  test('reads UTF-8 with a byte-order mark, LF line ends, quoted fields, and its own export', async () => {
    const { token } = await freshOrganization()
    const text = 'firstName,lastName,addressStreet\n"Zoë","O\'Brien, Jr.","1 ""Main"" St\nApt 2"\n'
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)])
    expect(await report('constituents', bom, token)).toMatchObject({ rows: 1, created: 1, errors: [] })
    const found = await api.call<Array<Record<string, string>>>('GET', '/api/constituents', { token })
    expect(found.body[0]).toMatchObject({ firstName: 'Zoë', lastName: "O'Brien, Jr.", addressStreet: '1 "Main" St\nApt 2' })

    // The export of one organization is a file another can import, phone numbers made inert included.
    await report('constituents', PEOPLE, token)
    const exported = await (
      await fetch(`${api.url}/api/constituents/export?format=csv`, { headers: { authorization: `Bearer ${token}` } })
    ).text()
    expect(exported).toContain("'+15035550101")
    const elsewhere = await freshOrganization()
    expect(await report('constituents', exported, elsewhere.token)).toMatchObject({
      dryRun: false,
      rows: 5,
      created: 5,
      skipped: 0,
      errors: [],
    })
    const phones = await api.call<Array<{ phone?: string }>>('GET', '/api/constituents?query=%2B15035550101', { token: elsewhere.token })
    expect(phones.body.map((c) => c.phone)).toEqual(['+15035550101'])
  })

  test('refuses a file that is not CSV: a bad quote names its row, a column named twice is named, no header is said', async () => {
    const { token } = await freshOrganization()
    const unclosed = await problemOf(await importing('constituents', 'firstName\nAna\n"Ben\n', token))
    // The row before the fault is in: the answer says so.
    expect(expectBadRequest(unclosed).detail).toBe(
      'Row 2 is not valid CSV: a quoted field is not closed; rows 1 to 1 were imported, the rest was not read',
    )
    const stray = await problemOf(await importing('constituents', 'firstName,lastName\nAna,Li"ma\n', token))
    expect(expectBadRequest(stray).detail).toBe('Row 1 is not valid CSV: a quote may only open a field')
    const twice = await problemOf(await importing('constituents', 'Phone Number,Mobile,firstName\n1,2,Ana\n', token))
    expect(expectBadRequest(twice).detail).toBe('The header names a column twice: phone (Phone Number, Mobile)')
    const none = await problemOf(await importing('constituents', 'shoeSize\n9\n', token))
    expect(expectBadRequest(none).detail).toStartWith('The header names none of the columns this import reads: firstName, lastName,')
    expect(expectBadRequest(await problemOf(await importing('constituents', '', token))).detail).toStartWith('The file is empty')
    const notUtf8 = await problemOf(await importing('constituents', new Uint8Array([0x61, 0x0a, 0xff, 0x0a]), token))
    expect(expectBadRequest(notUtf8).detail).toBe('The file is not UTF-8 text: save it as CSV UTF-8')
    const ragged = await report('constituents', 'firstName,lastName\nAna\n', token)
    expect(ragged.errors).toEqual([{ row: 1, field: '', message: 'has 1 cells where the header names 2 columns' }])
    expect(await searchTotal(token)).toBe(1)
  })

  test('over the limits: more rows or bytes than allowed is 413 with a clear problem', async () => {
    const { token } = await freshOrganization()
    const rows = `firstName\n${'A\n'.repeat(IMPORT_LIMITS.maxRows + 1)}`
    const tooMany = expectProblem(await problemOf(await importing('constituents', rows, token, true)), 413, 'Payload too large')
    expect(tooMany.detail).toBe(
      `The file may hold at most ${IMPORT_LIMITS.maxRows} rows: split it; rows 1 to ${IMPORT_LIMITS.maxRows} were checked, the rest was not read`,
    )
    const big = `firstName\n${'A'.repeat(IMPORT_LIMITS.maxBytes)}\n`
    const tooBig = expectProblem(await problemOf(await importing('constituents', big, token)), 413, 'Payload too large')
    expect(tooBig.detail).toBe(`The request body may be at most ${IMPORT_LIMITS.maxBytes} bytes`)
    expect(await searchTotal(token)).toBe(0)
  })

  test('reads the file as it arrives: the first batch is in while the rest is still on its way', async () => {
    const { token } = await freshOrganization()
    const rows = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => `P${from + i},Stream,+1503558${String(from + i).padStart(4, '0')}\n`).join('')
    let sendTheRest!: () => void
    const rest = new Promise<void>((resolve) => (sendTheRest = resolve))
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode(`firstName,lastName,phone\n${rows(0, 600)}`))
        await rest
        controller.enqueue(new TextEncoder().encode(rows(600, 700)))
        controller.close()
      },
    })
    const answer = fetch(`${api.url}/api/constituents/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      body,
      duplex: 'half',
    } as RequestInit)
    // The first 500 rows are committed before the file has ended.
    for (let tries = 0; tries < 400 && (await searchTotal(token)) === 0; tries++) await Bun.sleep(25)
    expect(await searchTotal(token)).toBe(500)
    sendTheRest()
    expect(await (await answer).json()).toMatchObject({ rows: 700, created: 700 })
    expect(await searchTotal(token)).toBe(700)
  })

  test('org_admin only; a body that is not text/csv is 415', async () => {
    const { org, token } = await freshOrganization()
    const staff = await api.tokenFor(org, 'staff', { profiles: ['pii_reader', 'intake_staff'] })
    expectProblem(await problemOf(await importing('constituents', PEOPLE, staff)), 403, 'Forbidden')
    const anonymous = await fetch(`${api.url}/api/constituents/import`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: PEOPLE,
    })
    expectProblem(await problemOf(anonymous), 401, 'Unauthorized')
    const json = await api.call('POST', '/api/constituents/import', { token, body: { firstName: 'Ana' } })
    expectProblem(json, 415, 'Unsupported media type')
    expect(await searchTotal(token)).toBe(0)
  })

  test('records one import event with its counts and no values, and a creation event per person; a dry run records nothing', async () => {
    const { token } = await freshOrganization()
    await report('constituents', PEOPLE, token, true)
    expect((await api.call('GET', '/api/audit-events?action=import', { token })).body).toEqual([])
    await report('constituents', PEOPLE, token)
    const events = await api.call<Array<Record<string, unknown>>>('GET', '/api/audit-events?action=import', { token })
    expect(events.body).toHaveLength(1)
    expect(events.body[0]).toMatchObject({
      recordType: 'organization',
      fields: ['constituents'],
      counts: { rows: 6, created: 4, skipped: 1, refused: 1 },
    })
    const created = await api.call('GET', '/api/audit-events?action=create&recordType=constituent', { token })
    expect(created.body).toHaveLength(4)
    const trail = JSON.stringify((await api.call('GET', '/api/audit-events?limit=100', { token })).body)
    for (const value of ['Lima', '+15035550101', 'ben@example.org', '1990-04-02', 'Oak']) expect(trail).not.toContain(value)
  })
})

describe('POST /api/needs/import', () => {
  const needsFile = (pantryId: string) =>
    [
      'partnerId,status,description,isConfidential,customFields,createdAt',
      'pantry,NEW,Needs groceries,false,"{""phone"":""+15035550101"",""firstName"":""Ana""}",2025-03-01T09:30:00Z',
      `${pantryId},IN_PROGRESS,Rent help,TRUE,,2025-03-02`,
      ',RESOLVED,Old request,,{},2024-12-31T23:00:00-05:00',
      'Nobody,OPEN,Lost,maybe,[1],',
      'Pantry,NEW,Needs groceries,false,"{""firstName"":""Ana"",""phone"":""+15035550101""}",2025-03-01T09:30:00.000Z',
      'Pantry,NEW,Bad phone,false,"{""phone"":""555""}",2025-03-03',
    ].join('\n')

  test('creates each valid row on its original date for the partner it names; skips the same row again; errors by row and column', async () => {
    const { org, token } = await freshOrganization()
    const pantry = await org.partner({ name: 'Pantry' })
    const file = needsFile(pantry.id)

    const dry = await report('needs', file, token, true)
    expect((await api.call('GET', '/api/needs', { token })).body).toEqual([])
    const first = await report('needs', file, token)
    expect(dry).toEqual({ ...first, dryRun: true })
    expect({ ...first, errors: first.errors.map(({ row, field }) => `${row} ${field}`) }).toEqual({
      dryRun: false,
      rows: 6,
      created: 3,
      skipped: 1,
      errors: ['4 partnerId', '4 createdAt', '4 isConfidential', '4 customFields', '4 status', '6 customFields/phone'],
      columns: first.columns,
    })
    expect(first.errors.find((e) => e.field === 'createdAt')?.message).toBe('is required: the date the request was made')

    const needs = await api.call<Array<Record<string, any>>>('GET', '/api/needs', { token })
    expect(
      needs.body.map((n) => [n.customFields.description, n.partnerId, n.status, n.isConfidential, n.createdAt, Boolean(n.constituentId)]),
    ).toEqual([
      ['Rent help', pantry.id, 'IN_PROGRESS', true, '2025-03-02T00:00:00.000Z', false],
      ['Needs groceries', pantry.id, 'NEW', false, '2025-03-01T09:30:00.000Z', true],
      ['Old request', org.defaultPartner.id, 'RESOLVED', false, '2025-01-01T04:00:00.000Z', false],
    ])
    const history = await api.call<Array<Record<string, unknown>>>('GET', `/api/needs/${needs.body[1]!.id}/history`, { token })
    expect(history.body).toEqual([expect.objectContaining({ field: 'status', to: 'NEW', changedAt: '2025-03-01T09:30:00.000Z' })])

    const again = await report('needs', file, token)
    expect({ created: again.created, skipped: again.skipped }).toEqual({ created: 0, skipped: 4 })
    expect((await api.call('GET', '/api/needs', { token })).body).toHaveLength(3)
    const events = await api.call<Array<{ fields: string[]; counts: Record<string, number> }>>('GET', '/api/audit-events?action=import', {
      token,
    })
    expect(events.body.map((e) => [e.fields, e.counts])).toEqual([
      [['needs'], { rows: 6, created: 0, skipped: 4, refused: 2 }],
      [['needs'], { rows: 6, created: 3, skipped: 1, refused: 2 }],
    ])
  })

  test('reads its own export: the names beside the ids passed over, the known customFields columns and resolvedAt read back', async () => {
    const { org, token } = await freshOrganization()
    const pantry = await org.partner({ name: 'Pantry' })
    const file = [
      'partnerId,status,description,customFields,createdAt',
      `${pantry.id},RESOLVED,Done,"{""firstName"":""Ana"",""phone"":""+15035550101"",""size"":4}",2025-03-01T09:30:00Z`,
    ].join('\n')
    expect((await report('needs', file, token)).created).toBe(1)
    const [before] = (await api.call<Array<Record<string, any>>>('GET', '/api/needs', { token })).body
    const exported = await (await fetch(`${api.url}/api/needs/export?format=csv`, { headers: { authorization: `Bearer ${token}` } })).text()
    expect(exported.split('\r\n')[0]).toContain('partnerName,assignedTo,assigneeName,constituentId,constituentName')
    // The same file again is the need on file: skipped, nothing created.
    expect(await report('needs', exported, token)).toMatchObject({ rows: 1, created: 0, skipped: 1, errors: [] })

    const { org: other, token: otherToken } = await freshOrganization()
    await other.partner({ name: 'Pantry' })
    expect(await report('needs', exported, otherToken)).toMatchObject({ rows: 1, created: 1, errors: [] })
    const [copy] = (await api.call<Array<Record<string, any>>>('GET', '/api/needs', { token: otherToken })).body
    expect(copy).toMatchObject({
      status: 'RESOLVED',
      customFields: before!.customFields,
      createdAt: before!.createdAt,
      resolvedAt: before!.resolvedAt,
    })
  })

  test('org_admin only, CSV only', async () => {
    const { org, token } = await freshOrganization()
    const partnerAdmin = await api.tokenFor(org, 'partner_admin', { partnerId: org.defaultPartner.id })
    expectProblem(await problemOf(await importing('needs', needsFile(org.defaultPartner.id), partnerAdmin)), 403, 'Forbidden')
    expectProblem(
      await api.call('POST', '/api/needs/import', { token, raw: 'a,b', headers: { 'content-type': 'text/plain' } }),
      415,
      'Unsupported media type',
    )
    expect((await api.call('GET', '/api/needs', { token })).body).toEqual([])
  })
})
