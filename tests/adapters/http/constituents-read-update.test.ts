import { fieldsSeenBy } from '../../support/contact-fields'
import { uniqueName, uniquePhone } from '../../support/builders'
import { describe, expect, test } from 'bun:test'
import { expectBadRequest, expectProblem, UNKNOWN_ID } from './helpers'
import { api, openConstituentsServer, tokens } from './constituents-support'
import { type Constituent, fullPerson, INVALID_FIELDS, readBack } from './constituents-support'
import { register, search } from './constituents-support'

// docs/constituents.md, docs/api/conventions.md "Errors", "Updates" and docs/api/access.md "Permissions": reading one person and changing
// their record, over real HTTP. A read shows what a search would, and an update keeps what it leaves out.
openConstituentsServer()

describe('GET /api/constituents/{id}', () => {
  const read = (id: string, token = tokens.admin) => api.call<Constituent>('GET', `/api/constituents/${id}`, { token })

  test('answers the constituent, each field shown or left out by the role exactly as in search results', async () => {
    const person = await register(fullPerson())
    expect((await read(person.id)).body).toEqual(person)
    const expected: Array<[string, readonly string[]]> = [
      [tokens.admin, fieldsSeenBy('personal')],
      [tokens.piiStaff, fieldsSeenBy('personal')],
      [tokens.partnerAdminA, fieldsSeenBy('personal')],
      [tokens.contactStaff, fieldsSeenBy('contact')],
      [tokens.staff, fieldsSeenBy('everyone')],
      [tokens.agentA, fieldsSeenBy('everyone')],
      [tokens.intakeVolunteerA, fieldsSeenBy('everyone')],
    ]
    for (const [token, fields] of expected) {
      const response = await read(person.id, token)
      expect(response.status).toBe(200)
      expect(Object.keys(response.body).sort()).toEqual(['id', 'householdId', ...fields].sort())
      const [searched] = (await search(person.lastName!, token)).body
      expect(response.body).toEqual(searched!)
    }
  })

  test('a plain volunteer may not read constituents (403)', async () => {
    const person = await register({ firstName: 'Vee', lastName: uniqueName() })
    expectProblem(await read(person.id, tokens.volunteerA), 403, 'Forbidden')
  })

  test("another organization's constituent is 404, exactly as an unknown id; a malformed id is a 400", async () => {
    const person = await register({ firstName: 'Oz', lastName: uniqueName() })
    expectProblem(await read(person.id, tokens.otherAdmin), 404, 'Not found')
    expectProblem(await read(UNKNOWN_ID), 404, 'Not found')
    expectBadRequest(await read('not-a-uuid'), 'id')
  })

  test('without a token it is a 401', async () => {
    expectProblem(await api.call('GET', `/api/constituents/${UNKNOWN_ID}`), 401, 'Unauthorized')
  })
})

describe('PUT /api/constituents/{id}', () => {
  const put = (id: string, body: unknown, token = tokens.admin) => api.call<Constituent>('PUT', `/api/constituents/${id}`, { token, body })

  test('changes the given fields, keeps the others, and answers the whole constituent', async () => {
    const person = fullPerson()
    const created = await register(person)
    const response = await put(created.id, { addressCity: 'Troy', addressZip: '12180', email: 'ADA@Example.org' })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ ...created, addressCity: 'Troy', addressZip: '12180', email: 'ADA@Example.org' })
    expect(await readBack(created.id, person.lastName)).toEqual(response.body)
  })

  test('null clears a field; the field is then omitted, not null', async () => {
    const person = fullPerson()
    const created = await register(person)
    const response = await put(created.id, { phone: null, addressZip: null, dateOfBirth: null, firstName: null })
    expect(response.status).toBe(200)
    const { phone: _p, addressZip: _z, dateOfBirth: _d, firstName: _f, ...kept } = created
    expect(response.body).toEqual(kept)
    expect(Object.values(response.body)).not.toContain(null)
    expect(await readBack(created.id, person.lastName)).toEqual(kept)
    expect((await search(person.phone)).body).toEqual([])
  })

  test('an empty body changes nothing', async () => {
    const person = fullPerson()
    const created = await register(person)
    const response = await put(created.id, {})
    expect(response.status).toBe(200)
    expect(response.body).toEqual(created)
  })

  test('search follows the change: new names and phone are found, old ones no longer', async () => {
    const lastName = uniqueName()
    const newLastName = uniqueName()
    const phone = uniquePhone()
    const newPhone = uniquePhone()
    const created = await register({ firstName: 'Adalind', lastName, phone })
    const updated = await put(created.id, { firstName: 'Augusta', lastName: newLastName, phone: newPhone })
    expect(updated.status).toBe(200)
    expect((await search(`augusta ${newLastName}`)).body.map((c) => c.id)).toEqual([created.id])
    expect((await search(newPhone)).body.map((c) => c.id)).toEqual([created.id])
    expect((await search(lastName)).body).toEqual([])
    expect((await search(`adalind ${newLastName}`)).body).toEqual([])
    expect((await search(phone)).body).toEqual([])
  })

  test.each(INVALID_FIELDS)('%s is a 400 naming the field, and nothing changes', async (_label, body, field) => {
    const person = fullPerson()
    const created = await register(person)
    const response = await put(created.id, { addressCity: 'Troy', ...body })
    expect(response.status).not.toBe(422)
    expectBadRequest(response, field)
    expect(await readBack(created.id, person.lastName)).toEqual(created)
  })

  test('an id in the body or a householdId (a household is changed by merging) is a 400', async () => {
    const created = await register({ lastName: uniqueName() })
    expectBadRequest(await put(created.id, { id: created.id }), '/id')
    expectBadRequest(await put(created.id, { householdId: created.householdId }), '/householdId')
  })

  test('a malformed id is a 400; an unknown id is 404 Constituent not found', async () => {
    expectBadRequest(await put('not-a-uuid', { firstName: 'x' }), 'id')
    expectProblem(await put(UNKNOWN_ID, { firstName: 'x' }), 404, 'Not found')
  })

  test("another organization's constituent is 404, exactly as an unknown id, and stays unchanged", async () => {
    const lastName = uniqueName()
    const theirs = await register({ firstName: 'Theirs', lastName, phone: uniquePhone() }, tokens.otherAdmin)
    const response = await put(theirs.id, { firstName: 'Stolen', phone: null })
    expectProblem(response, 404, 'Not found')
    expect(response.body).toEqual((await put(UNKNOWN_ID, { firstName: 'Stolen', phone: null })).body)
    expect((await search(lastName, tokens.otherAdmin)).body).toEqual([theirs])
  })

  test('caseworker roles and intake volunteers may update; a plain volunteer may not (403)', async () => {
    const person = fullPerson()
    const created = await register(person)
    for (const [token, city] of [
      [tokens.staff, 'Troy'],
      [tokens.partnerAdminA, 'Utica'],
      [tokens.agentA, 'Ithaca'],
      [tokens.intakeVolunteerA, 'Rome'],
    ] as const) {
      expect((await put(created.id, { addressCity: city }, token)).status).toBe(200)
      expect((await readBack(created.id, person.lastName))?.addressCity).toBe(city)
    }
    expectProblem(await put(created.id, { addressCity: 'Nowhere' }, tokens.volunteerA), 403, 'Forbidden')
    expect((await readBack(created.id, person.lastName))?.addressCity).toBe('Rome')
  })

  test('without a token it is a 401, before the body is looked at', async () => {
    const created = await register({ lastName: uniqueName() })
    expectProblem(await api.call('PUT', `/api/constituents/${created.id}`, { body: { firstName: 'x' } }), 401, 'Unauthorized')
    expectProblem(await api.call('PUT', `/api/constituents/${created.id}`, { body: { phone: 'bad' } }), 401, 'Unauthorized')
  })
})
