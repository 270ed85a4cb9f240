import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { NEED_STATUSES } from '../../../src/domain/needs/need'
import { startTestServer, type TestServer } from '../../support/http'
import { expectProblem } from './helpers'

// docs/api/conventions.md "Errors": a 400 lists each offending field once, with its path and a message a person
// understands, never a regular expression or a JSON type name.

let api: TestServer
let admin: string

beforeAll(async () => {
  api = await startTestServer()
  admin = await api.tokenFor(api.world, 'org_admin')
})
afterAll(() => api.stop())

async function errorsOf(method: string, path: string, body?: unknown) {
  const response = await api.call(method, path, { token: admin, ...(body === undefined ? {} : { body }) })
  // Some routes name their 400 otherwise (docs/api/conventions.md "Errors"); the fields are what is checked here.
  return expectProblem(response, 400, response.body.title).errors ?? []
}

describe('field messages', () => {
  test.each([
    [
      'a phone that is no number of the organization’s country nor international',
      'POST',
      '/api/constituents',
      { firstName: 'Ana', phone: '555-1234' },
      '/phone',
      'must be a phone number, e.g. +1 503 555 0142 or 503 555 0142',
    ],
    ['a missing required field', 'POST', '/api/partners', { slaHours: 24 }, '/name', 'is required'],
    ['an empty name', 'POST', '/api/partners', { name: '' }, '/name', 'must not be empty'],
    [
      'a field the request does not have',
      'POST',
      '/api/partners',
      { name: 'Pantry', color: 'blue' },
      '/color',
      'is not a field of this request',
    ],
    ['a number as text', 'POST', '/api/partners', { name: 'Pantry', slaHours: '24' }, '/slaHours', 'must be a whole number'],
    [
      'a clearable short code of the wrong form',
      'PUT',
      '/api/organizations/settings',
      { shortCode: 'ab' },
      '/shortCode',
      'must be 4 to 6 uppercase letters, or null',
    ],
    [
      'a ZIP code of the wrong form',
      'POST',
      '/api/constituents',
      { firstName: 'Ana', addressZip: '1234' },
      '/addressZip',
      'must be a five-digit ZIP code',
    ],
    [
      'a state that is not one',
      'POST',
      '/api/constituents',
      { firstName: 'Ana', addressState: 'XX' },
      '/addressState',
      'must be a two-letter US state or territory code such as NY',
    ],
    [
      'a date of birth of the wrong form',
      'POST',
      '/api/constituents',
      { firstName: 'Ana', dateOfBirth: '01/02/1990' },
      '/dateOfBirth',
      'must be a date written YYYY-MM-DD',
    ],
    [
      'a status list with an unknown status',
      'GET',
      '/api/needs?status=NEW,OPEN',
      undefined,
      'query/status',
      `must be one of: ${NEED_STATUSES.join(', ')}`,
    ],
    ['a page that is not a number', 'GET', '/api/needs?page=abc', undefined, 'query/page', 'must be a whole number'],
    ['a partner id that is not an id', 'GET', '/api/needs?partnerId=abc', undefined, 'query/partnerId', 'must be an id (a UUID)'],
  ] as const)('%s', async (_case, method, path, body, field, message) => {
    const errors = await errorsOf(method, path, body)
    expect(errors.filter((e) => e.path === field)).toEqual([{ path: field, message }])
  })

  test('each field is named once, and no message shows a pattern or a JSON type', async () => {
    const errors = await errorsOf('POST', '/api/constituents', {
      firstName: 7,
      lastName: null,
      phone: 'call me',
      email: 'nobody',
      addressZip: 'ABCDE',
      dateOfBirth: '1990-02-30',
    })
    const paths = errors.map((e) => e.path)
    expect(new Set(paths).size).toBe(paths.length)
    expect(paths).toContain('/firstName')
    for (const { message } of errors) expect(message).not.toMatch(/Expected|\^|\$|\[0-9\]|should be|'string'|'null'/)
  })
})
