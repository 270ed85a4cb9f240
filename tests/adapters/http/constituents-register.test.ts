import { uniqueName } from '../../support/builders'
import { describe, expect, test } from 'bun:test'
import { expectBadRequest, expectProblem, UNKNOWN_ID } from './helpers'
import { api, openConstituentsServer, tokens } from './constituents-support'
import { type Constituent, fullPerson, INVALID_FIELDS, readBack, register, search } from './constituents-support'

// docs/constituents.md, docs/api/conventions.md "Errors" and docs/api/access.md "Permissions": registering a person, over real HTTP. What
// a registration takes, and who may make one, decide what the rest of the service can trust about a record.
openConstituentsServer()

describe('POST /api/constituents', () => {
  test('answers 201 with the constituent in a household of its own; surrounding spaces trimmed, nothing else added', async () => {
    const person = fullPerson()
    const response = await api.call<Constituent>('POST', '/api/constituents', {
      token: tokens.admin,
      body: { ...person, firstName: '  Ada  ', addressCity: ' Albany ' },
    })
    expect(response.status).toBe(201)
    expect(response.headers.get('content-type')).toStartWith('application/json')
    const created = response.body
    expect(created).toEqual({ id: expect.any(String), householdId: expect.any(String), ...person })
    expect(created.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(await readBack(created.id, person.lastName)).toEqual(created)

    const another = await register({ firstName: 'Grace', lastName: uniqueName() })
    expect(Object.keys(another).sort()).toEqual(['firstName', 'householdId', 'id', 'lastName'])
    expect(another.householdId).not.toBe(created.householdId)
  })

  test('takes real edge dates and every kind of state code', async () => {
    for (const [dateOfBirth, addressState] of [
      ['2024-02-29', 'DC'],
      ['2000-02-29', 'PR'],
      ['1900-01-01', 'AE'],
    ] as const) {
      const created = await register({ lastName: uniqueName(), dateOfBirth, addressState })
      expect(created).toMatchObject({ dateOfBirth, addressState })
    }
  })

  test('a householdId puts the constituent into that household', async () => {
    const first = await register({ firstName: 'Mary', lastName: uniqueName() })
    const second = await register({ firstName: 'Percy', lastName: uniqueName(), householdId: first.householdId })
    expect(second.householdId).toBe(first.householdId)
  })

  test("an unknown householdId or another organization's is a 400 naming it, and no one is registered", async () => {
    const theirs = await register({ firstName: 'Theirs', lastName: uniqueName() }, tokens.otherAdmin)
    for (const householdId of [UNKNOWN_ID, theirs.householdId]) {
      const lastName = uniqueName()
      expectBadRequest(
        await api.call('POST', '/api/constituents', { token: tokens.admin, body: { lastName, householdId } }),
        '/householdId',
      )
      expect((await search(lastName)).body).toEqual([])
    }
  })

  test.each(INVALID_FIELDS)('%s is a 400 naming the field', async (_label, body, field) => {
    const response = await api.call('POST', '/api/constituents', { token: tokens.admin, body: { firstName: 'Ada', ...body } })
    expect(response.status).not.toBe(422)
    expectBadRequest(response, field)
  })

  test('null is no value on create: a 400', async () => {
    expectBadRequest(
      await api.call('POST', '/api/constituents', { token: tokens.admin, body: { firstName: 'Ada', phone: null } }),
      '/phone',
    )
  })

  test('names every offending field at once', async () => {
    const response = await api.call('POST', '/api/constituents', {
      token: tokens.admin,
      body: { phone: '555', addressZip: '1234', email: 'nope', firstName: 7 },
    })
    const body = expectBadRequest(response)
    const paths = body.errors!.map((e) => e.path)
    // A phone is read in the organization's country once the body passes its schema: its error comes after.
    for (const field of ['/addressZip', '/email', '/firstName']) expect(paths).toContain(field)
    const phone = await api.call('POST', '/api/constituents', { token: tokens.admin, body: { phone: '555', firstName: 'Ana' } })
    expect(expectBadRequest(phone).errors!.map((e) => e.path)).toEqual(['/phone'])
  })

  test('an empty body, or only blank fields, is a 400: a record with nothing in it serves no one', async () => {
    expectBadRequest(await api.call('POST', '/api/constituents', { token: tokens.admin, body: {} }))
    expectBadRequest(await api.call('POST', '/api/constituents', { token: tokens.admin, body: { firstName: '   ', lastName: '' } }))
  })

  test('malformed JSON and a non-object body are 400s', async () => {
    expectBadRequest(
      await api.call('POST', '/api/constituents', {
        token: tokens.admin,
        raw: '{"firstName":',
        headers: { 'content-type': 'application/json' },
      }),
    )
    expectBadRequest(await api.call('POST', '/api/constituents', { token: tokens.admin, body: ['Ada'] }))
  })

  test('caseworker roles and intake volunteers register constituents; a plain volunteer may not (403)', async () => {
    for (const token of [tokens.staff, tokens.partnerAdminA, tokens.agentA, tokens.intakeVolunteerA]) {
      await register({ firstName: 'Someone', lastName: uniqueName() }, token)
    }
    const lastName = uniqueName()
    expectProblem(await api.call('POST', '/api/constituents', { token: tokens.volunteerA, body: { lastName } }), 403, 'Forbidden')
    expect((await search(lastName)).body).toEqual([])
  })

  test('without a token it is a 401, before the body is looked at', async () => {
    expectProblem(await api.call('POST', '/api/constituents', { body: { firstName: 'Ada' } }), 401, 'Unauthorized')
    expectProblem(await api.call('POST', '/api/constituents', { body: { phone: 'bad' } }), 401, 'Unauthorized')
  })
})
