import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import { CONTACT_COLUMNS, importClient } from './import-support'

// docs/api/exports-import.md "Import": a header's common names, over real HTTP (SQLite, and PostgreSQL with TEST_DATABASE=postgres).
let api: TestServer
beforeAll(async () => {
  api = await startTestServer()
})
afterAll(() => api.stop())

const { freshOrganization, report } = importClient(() => api)

describe('an import header', () => {
  test('reads common header names as the columns they mean, and lists the names it does not read', async () => {
    const { token } = await freshOrganization()
    const text = 'First Name,last_name,Mobile,E-mail,Zip Code,Shoe size,householdId\nAna,Lima,+15035550101,ana@example.org,97201,9,h-1\n'
    const result = await report('constituents', text, token)
    expect(result).toMatchObject({ rows: 1, created: 1, errors: [] })
    expect(result.columns).toEqual({
      matched: [
        { header: 'First Name', column: 'firstName' },
        { header: 'last_name', column: 'lastName' },
        { header: 'Mobile', column: 'phone' },
        { header: 'E-mail', column: 'email' },
        { header: 'Zip Code', column: 'addressZip' },
      ],
      // The export's own householdId is passed over as ever, not unknown.
      unknown: ['Shoe size'],
    })
    const found = await api.call<Array<Record<string, string>>>('GET', '/api/constituents', { token })
    expect(found.body[0]).toMatchObject({
      firstName: 'Ana',
      lastName: 'Lima',
      phone: '+15035550101',
      email: 'ana@example.org',
      addressZip: '97201',
    })
  })

  test('the document carries each import column with its common names, for the console', async () => {
    const document = (await api.call<any>('GET', '/api/openapi.json')).body
    const columns = document.components.schemas.ImportReport.properties.columns['x-import-columns']
    expect(Object.keys(columns.constituents)).toEqual(CONTACT_COLUMNS)
    expect(columns.constituents.addressZip).toContain('Postal Code')
    expect(Object.keys(columns.needs)).toEqual([
      'partnerId',
      'partnerName',
      'status',
      'description',
      'isConfidential',
      'customFields',
      ...['description', 'firstName', 'lastName', 'phone', 'email', 'dateOfBirth']
        .concat(['addressStreet', 'addressCity', 'addressState', 'addressZip'])
        .map((key) => `customFields.${key}`),
      'createdAt',
      'resolvedAt',
    ])
    expect(columns.needs.partnerName).toEqual(['Partner', 'Agency'])
  })
})
