import { uniqueName, uniquePhone } from '../../support/builders'
import { describe, expect, test } from 'bun:test'
import { expectBadRequest, expectProblem, UNKNOWN_ID } from './helpers'
import { api, openConstituentsServer, other, partnerB, tokens } from './constituents-support'
import { type Constituent, constituentNeeds, createNeed, fullPerson, type Need, readBack, register, search } from './constituents-support'

// docs/constituents.md (merging), docs/api/conventions.md "Errors" and docs/api/access.md "Permissions": merging two records of one person,
// over real HTTP. A merge removes a record for good, so what moves, what stays and who may do it are held here.
openConstituentsServer()

describe('POST /api/constituents/merge', () => {
  const merge = (body: unknown, token = tokens.admin) => api.call<Constituent>('POST', '/api/constituents/merge', { token, body })

  test("moves the source's needs to the target and its household, applies fieldOverrides (null clears), removes the source; answers 200 with the target", async () => {
    const sourcePerson = { firstName: 'Sam', lastName: uniqueName(), phone: uniquePhone(), email: 'sam@example.org' }
    const targetPerson = { firstName: 'Samuel', lastName: uniqueName(), phone: uniquePhone(), addressCity: 'Albany', addressState: 'NY' }
    const source = await register(sourcePerson)
    const target = await register(targetPerson)
    const sourceNeed1 = await createNeed({ constituentId: source.id, customFields: { program: 'one' } })
    const sourceNeed2 = await createNeed({ partnerId: partnerB.id, constituentId: source.id })
    const targetNeed = await createNeed({ constituentId: target.id })
    const note = await api.call('POST', `/api/needs/${sourceNeed1.id}/notes`, { token: tokens.admin, body: { content: 'called back' } })
    expect(note.status).toBe(201)

    const response = await merge({
      sourceConstituentId: source.id,
      targetConstituentId: target.id,
      fieldOverrides: { firstName: 'Samuel J.', email: 'sam@example.org', phone: null, addressState: 'NJ' },
    })
    expect(response.status).toBe(200)
    const expected = {
      id: target.id,
      householdId: target.householdId,
      firstName: 'Samuel J.',
      lastName: targetPerson.lastName,
      email: 'sam@example.org',
      addressCity: 'Albany',
      addressState: 'NJ',
    }
    expect(response.body).toEqual(expected)
    expect(await readBack(target.id, targetPerson.lastName)).toEqual(expected)

    const needs = (await constituentNeeds(target.id)).body
    expect(needs.map((n) => n.id).sort()).toEqual([sourceNeed1.id, sourceNeed2.id, targetNeed.id].sort())
    for (const need of needs) expect(need).toMatchObject({ constituentId: target.id, householdId: target.householdId })
    expect((await api.call<Need[]>('GET', `/api/needs?constituentId=${source.id}`, { token: tokens.admin })).body).toEqual([])
    // The interactions travel with their need.
    const interactions = await api.call<Array<{ content: string }>>('GET', `/api/needs/${sourceNeed1.id}/interactions`, {
      token: tokens.admin,
    })
    expect(interactions.body.map((i) => i.content)).toEqual(['called back'])

    // The source is gone.
    expect(await readBack(source.id, sourcePerson.lastName)).toBeUndefined()
    expect((await search(sourcePerson.phone)).body).toEqual([])
    expectProblem(await constituentNeeds(source.id), 404, 'Not found')
    expectProblem(
      await api.call('PUT', `/api/constituents/${source.id}`, { token: tokens.admin, body: { firstName: 'x' } }),
      404,
      'Not found',
    )
    expectProblem(await merge({ sourceConstituentId: source.id, targetConstituentId: target.id }), 404, 'Not found')
  })

  test('without fieldOverrides the target keeps exactly its own fields', async () => {
    const target = await register(fullPerson())
    const source = await register({ ...fullPerson(), firstName: 'Other' })
    const response = await merge({ sourceConstituentId: source.id, targetConstituentId: target.id })
    expect(response.status).toBe(200)
    expect(response.body).toEqual(target)
  })

  test("with mergeHouseholds the other members of the source's household join the target's, with their needs; without it they stay", async () => {
    for (const mergeHouseholds of [true, false]) {
      const target = await register({ firstName: 'Target', lastName: uniqueName() })
      const source = await register({ firstName: 'Source', lastName: uniqueName() })
      const relativeName = uniqueName()
      const relative = await register({ firstName: 'Relative', lastName: relativeName, householdId: source.householdId })
      const relativeNeed = await createNeed({ constituentId: relative.id })
      const sourceNeed = await createNeed({ constituentId: source.id })

      const response = await merge({ sourceConstituentId: source.id, targetConstituentId: target.id, mergeHouseholds })
      expect(response.status).toBe(200)
      expect(response.body.householdId).toBe(target.householdId)

      const household = mergeHouseholds ? target.householdId : source.householdId
      expect((await readBack(relative.id, relativeName))?.householdId).toBe(household)
      expect((await api.call<Need>('GET', `/api/needs/${relativeNeed.id}`, { token: tokens.admin })).body).toMatchObject({
        constituentId: relative.id,
        householdId: household,
      })
      expect((await api.call<Need>('GET', `/api/needs/${sourceNeed.id}`, { token: tokens.admin })).body).toMatchObject({
        constituentId: target.id,
        householdId: target.householdId,
      })
    }
  })

  test('source equal to target is a 400, and the constituent stays', async () => {
    const person = fullPerson()
    const one = await register(person)
    expectBadRequest(await merge({ sourceConstituentId: one.id, targetConstituentId: one.id }), 'ConstituentId')
    expect(await readBack(one.id, person.lastName)).toEqual(one)
  })

  test.each([
    ['no sourceConstituentId', { sourceConstituentId: undefined }, '/sourceConstituentId'],
    ['no targetConstituentId', { targetConstituentId: undefined }, '/targetConstituentId'],
    ['a malformed sourceConstituentId', { sourceConstituentId: 'abc' }, '/sourceConstituentId'],
    ['a malformed targetConstituentId', { targetConstituentId: 42 }, '/targetConstituentId'],
    ['mergeHouseholds as a string', { mergeHouseholds: 'yes' }, '/mergeHouseholds'],
    ['an unknown property', { keep: 'source' }, '/keep'],
    ['fieldOverrides that is not an object', { fieldOverrides: 'all' }, '/fieldOverrides'],
    ['an unknown key in fieldOverrides', { fieldOverrides: { nickname: 'Sam' } }, '/fieldOverrides/nickname'],
    ['a fieldOverrides phone not E.164', { fieldOverrides: { phone: '555-1234' } }, '/fieldOverrides/phone'],
    ["a fieldOverrides addressState 'ZZ'", { fieldOverrides: { addressState: 'ZZ' } }, '/fieldOverrides/addressState'],
    ["a fieldOverrides addressZip '1234'", { fieldOverrides: { addressZip: '1234' } }, '/fieldOverrides/addressZip'],
    ["a fieldOverrides dateOfBirth '2023-02-29'", { fieldOverrides: { dateOfBirth: '2023-02-29' } }, '/fieldOverrides/dateOfBirth'],
    ["a fieldOverrides dateOfBirth '2023-13-01'", { fieldOverrides: { dateOfBirth: '2023-13-01' } }, '/fieldOverrides/dateOfBirth'],
    ['a bad fieldOverrides email', { fieldOverrides: { email: 'sam at home' } }, '/fieldOverrides/email'],
    [
      'a null fieldOverrides firstName (names can be set, not cleared)',
      { fieldOverrides: { firstName: null } },
      '/fieldOverrides/firstName',
    ],
    ['a fieldOverrides lastName as a number', { fieldOverrides: { lastName: 7 } }, '/fieldOverrides/lastName'],
  ])('%s is a 400 naming it, and nothing is merged', async (_label, change, field) => {
    const sourcePerson = fullPerson()
    const source = await register(sourcePerson)
    const target = await register(fullPerson())
    const body: Record<string, unknown> = { sourceConstituentId: source.id, targetConstituentId: target.id, ...change }
    for (const [key, value] of Object.entries(body)) if (value === undefined) delete body[key]
    const response = await merge(body)
    expect(response.status).not.toBe(422)
    expectBadRequest(response, field)
    expect(await readBack(source.id, sourcePerson.lastName)).toEqual(source)
  })

  test("an unknown id, or another organization's, is 404 Constituent not found, and nothing changes on either side", async () => {
    const minePerson = fullPerson()
    const mine = await register(minePerson)
    const mineNeed = await createNeed({ constituentId: mine.id })
    const theirName = uniqueName()
    const theirs = await register({ firstName: 'Theirs', lastName: theirName, phone: uniquePhone() }, tokens.otherAdmin)
    const theirNeed = await createNeed({ partnerId: other.defaultPartner.id, constituentId: theirs.id }, tokens.otherAdmin)
    const cases = [
      { sourceConstituentId: UNKNOWN_ID, targetConstituentId: mine.id },
      { sourceConstituentId: mine.id, targetConstituentId: UNKNOWN_ID },
      { sourceConstituentId: theirs.id, targetConstituentId: mine.id },
      { sourceConstituentId: mine.id, targetConstituentId: theirs.id, mergeHouseholds: true },
    ]
    for (const body of cases) {
      const response = await merge(body)
      expectProblem(response, 404, 'Not found')
      expect(JSON.stringify(response.body)).not.toContain(theirName)
    }
    expect(await readBack(mine.id, minePerson.lastName)).toEqual(mine)
    expect((await api.call<Need>('GET', `/api/needs/${mineNeed.id}`, { token: tokens.admin })).body.constituentId).toBe(mine.id)
    expect((await search(theirName, tokens.otherAdmin)).body).toEqual([theirs])
    expect((await api.call<Need>('GET', `/api/needs/${theirNeed.id}`, { token: tokens.otherAdmin })).body.constituentId).toBe(theirs.id)
  })

  test('only org_admin or the duplicate_resolver profile may merge (403 for the rest); the answer is redacted for the caller', async () => {
    const sourcePerson = fullPerson()
    const source = await register(sourcePerson)
    const target = await register(fullPerson())
    for (const token of [tokens.staff, tokens.piiStaff, tokens.partnerAdminA, tokens.agentA, tokens.intakeVolunteerA, tokens.volunteerA]) {
      expectProblem(await merge({ sourceConstituentId: source.id, targetConstituentId: target.id }, token), 403, 'Forbidden')
    }
    expect(await readBack(source.id, sourcePerson.lastName)).toEqual(source)

    const response = await merge({ sourceConstituentId: source.id, targetConstituentId: target.id }, tokens.resolverStaff)
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      id: target.id,
      householdId: target.householdId,
      firstName: target.firstName,
      lastName: target.lastName,
    })
    expect(await readBack(source.id, sourcePerson.lastName)).toBeUndefined()
  })

  test('without a token it is a 401, before the body is looked at', async () => {
    expectProblem(
      await api.call('POST', '/api/constituents/merge', { body: { sourceConstituentId: UNKNOWN_ID, targetConstituentId: UNKNOWN_ID } }),
      401,
      'Unauthorized',
    )
    expectProblem(await api.call('POST', '/api/constituents/merge', { body: { nonsense: true } }), 401, 'Unauthorized')
  })
})
