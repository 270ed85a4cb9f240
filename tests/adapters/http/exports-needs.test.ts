import { describe, expect, test } from 'bun:test'
import { api, createNeed, exported, openExportsServer, pantry, tokens, world } from './exports-support'
import { expectBadRequest, expectProblem, seedConstituent } from './helpers'
import { KNOWN_CUSTOM_FIELDS } from '../../../src/domain/needs/need'
import { restoreFormula } from '../../../src/domain/shared/csv'

/** A row's customFields as the JSON answer has them: the other keys' object and each known key's column. */
function customFieldsOf(row: Record<string, string>) {
  const columns = KNOWN_CUSTOM_FIELDS.flatMap((key) =>
    row[`customFields.${key}`] ? [[key, restoreFormula(row[`customFields.${key}`]!)]] : [],
  )
  return { ...JSON.parse(row.customFields!), ...Object.fromEntries(columns) }
}

// docs/api/exports-import.md "Exports", the needs' file: what the list shows, as the JSON answer has it, within the
// caller's scope, over real HTTP (SQLite, and PostgreSQL with TEST_DATABASE=postgres).
openExportsServer()

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
      'partnerName',
      'assignedTo',
      'assigneeName',
      'constituentId',
      'constituentName',
      'householdId',
      'parentNeedId',
      'isConfidential',
      'createdBy',
      'createdAt',
      'updatedAt',
      'dueDate',
      'resolvedAt',
      'duplicateWarning',
      ...KNOWN_CUSTOM_FIELDS.map((key) => `customFields.${key}`),
      'customFields',
    ])
    expect(rows.map((row) => row.id)).toEqual(list.body.map((need) => need.id))
    for (const [i, need] of list.body.entries()) {
      const { customFields, isConfidential, ...fields } = need
      expect(rows[i]).toMatchObject(Object.fromEntries(Object.entries(fields).filter(([name]) => header.includes(name))))
      expect({ isConfidential: rows[i]!.isConfidential, customFields: customFieldsOf(rows[i]!) }).toEqual({
        isConfidential: String(isConfidential),
        customFields,
      })
    }
  })

  test('names beside the ids: the partner, the assignee, and the person on file as the caller may read it', async () => {
    const caseworker = await world.member('staff', { fullName: 'Sam Caseworker' })
    const { constituentId } = await seedConstituent(api, tokens.admin!, { firstName: 'Rosa', lastName: 'Named' })
    const need = await createNeed({
      partnerId: pantry.id,
      assignedTo: caseworker.memberId,
      constituentId,
      customFields: { description: 'rent', phone: '+15035550101', shelf: 3, description2: 'x' },
    })
    const rowOf = async (token: string) => (await exported('/api/needs/export?format=csv', token)).rows.find((row) => row.id === need.id)!
    const admin = await rowOf(tokens.admin!)
    expect(admin).toMatchObject({ partnerName: 'Pantry', assigneeName: 'Sam Caseworker', constituentName: 'Rosa Named' })
    expect(admin).toMatchObject({ 'customFields.description': 'rent', 'customFields.phone': "'+15035550101", 'customFields.email': '' })
    expect(JSON.parse(admin.customFields!)).toEqual({ shelf: 3, description2: 'x' })
    // A volunteer with pii_reader exports needs but may not read constituents: the person's name is left empty.
    expect(await rowOf(tokens.piiVolunteer!)).toMatchObject({ partnerName: 'Pantry', constituentName: '' })
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
