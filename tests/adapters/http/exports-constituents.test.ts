import { ALL_FIELDS } from '../../support/contact-fields'
import { describe, expect, test } from 'bun:test'
import { api, exported, openExportsServer, tokens, world } from './exports-support'
import { expectBadRequest, expectProblem, seedConstituent } from './helpers'

// docs/api/exports-import.md "Exports", the constituents' file: what the search finds, with every cell that a spreadsheet
// would take for a formula made inert, over real HTTP (SQLite, and PostgreSQL with TEST_DATABASE=postgres).
openExportsServer()

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
    expect(header).toEqual(['id', 'householdId', ...ALL_FIELDS, 'createdAt', 'updatedAt'])
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
