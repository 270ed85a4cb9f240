import { uniqueEmail, uniqueName, uniquePhone } from '../../support/builders'
import { describe, expect, test } from 'bun:test'
import { ISO_MS } from './helpers'
import { api, openMatchesServer, other, tokens, world } from './household-matches-support'
import { allMatches, type Constituent, createNeed, matchesOf, type Need, type PossibleDuplicate } from './household-matches-support'
import { readNeed, register, registered, resolve } from './household-matches-support'

// docs/api/needs.md "Needs" (duplicate detection) and docs/constituents.md (matches): when a new or changed person
// looks like one already on file, over real HTTP. The caller is warned and a match is opened for someone to
// decide, never across organizations and never twice for one pair.
openMatchesServer()

describe('duplicate detection through POST /api/needs', () => {
  test('a need whose contact keys share a phone gets duplicateWarning, a new constituent, and one open match', async () => {
    const phone = uniquePhone()
    const existing = await register({ firstName: 'Edith', lastName: uniqueName(), phone })
    const need = await createNeed({ customFields: { firstName: 'Edie', lastName: uniqueName(), phone, program: 'winter' } })

    expect(need.duplicateWarning).toBe('Possible duplicate of 1 constituent: same phone')
    expect(need.constituentId).toBeString()
    expect(need.constituentId).not.toBe(existing.id)
    expect(need.householdId).not.toBe(existing.householdId)
    // Who the new person may be is the creation's answer; the need keeps the warning.
    const { possibleDuplicates, ...stored } = need
    expect(possibleDuplicates).toEqual([{ constituentId: existing.id, reasons: ['same phone'] }])
    expect(await readNeed(need.id)).toEqual(stored)

    const matches = await matchesOf(need.constituentId!)
    expect(matches).toEqual([
      {
        id: expect.any(String),
        organizationId: world.organizationId,
        constituentId: need.constituentId!,
        candidateConstituentId: existing.id,
        constituent: expect.objectContaining({ id: need.constituentId!, firstName: 'Edie', phone }),
        candidate: existing,
        reason: 'same phone',
        reasons: ['same phone'],
        status: 'OPEN',
        createdAt: expect.stringMatching(ISO_MS),
      },
    ])
    // Found at a moment, shown with it: a time-ordered id (docs/api/conventions.md "Identifiers").
    expect(matches[0]!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  test('two candidates: "Possible duplicate of 2 constituents", every reason once, one match each', async () => {
    const phone = uniquePhone()
    const email = uniqueEmail()
    const byPhone = await register({ firstName: 'Pat', lastName: uniqueName(), phone })
    const byEmail = await register({ firstName: 'Pat', lastName: uniqueName(), email: email.toUpperCase() })
    const need = await createNeed({ customFields: { firstName: 'Patricia', lastName: uniqueName(), phone, email } })

    expect(need.duplicateWarning).toBe('Possible duplicate of 2 constituents: same phone, same email')
    expect(
      need.possibleDuplicates.sort((a: PossibleDuplicate, b: PossibleDuplicate) => a.reasons[0]!.localeCompare(b.reasons[0]!)),
    ).toEqual([
      { constituentId: byEmail.id, reasons: ['same email'] },
      { constituentId: byPhone.id, reasons: ['same phone'] },
    ])
    const matches = await matchesOf(need.constituentId!)
    expect(matches.map((m) => [m.candidateConstituentId, m.reason]).sort()).toEqual(
      [
        [byPhone.id, 'same phone'],
        [byEmail.id, 'same email'],
      ].sort(),
    )
    for (const match of matches) expect(match).toMatchObject({ constituentId: need.constituentId, status: 'OPEN' })
  })

  test('one candidate sharing several keys is one match with every reason', async () => {
    const phone = uniquePhone()
    const email = uniqueEmail()
    const existing = await register({ firstName: 'Lee', lastName: uniqueName(), phone, email })
    const need = await createNeed({ customFields: { firstName: 'Lee', phone, email: email.toUpperCase() } })
    expect(need.duplicateWarning).toBe('Possible duplicate of 1 constituent: same phone, same email')
    expect((await matchesOf(need.constituentId!)).map((m) => [m.candidateConstituentId, m.reason])).toEqual([
      [existing.id, 'same phone, same email'],
    ])
  })

  test('the same first and last name and date of birth match whatever the case, accents and punctuation', async () => {
    const lastName = `Núñez-${uniqueName()}`
    const existing = await register({ firstName: 'José', lastName, dateOfBirth: '1980-05-17' })
    const need = await createNeed({
      customFields: {
        firstName: 'JOSE',
        lastName: lastName.toLowerCase().replace('-', ' ').replace('ú', 'u').replace('ñ', 'n'),
        dateOfBirth: '1980-05-17',
      },
    })
    expect(need.duplicateWarning).toBe('Possible duplicate of 1 constituent: same name and date of birth')
    expect((await matchesOf(need.constituentId!)).map((m) => m.candidateConstituentId)).toEqual([existing.id])

    // Another date of birth, or no date of birth: names alone are no duplicate.
    const otherBirth = await createNeed({ customFields: { firstName: 'José', lastName, dateOfBirth: '1980-05-18' } })
    const noBirth = await createNeed({ customFields: { firstName: 'José', lastName } })
    for (const need of [otherBirth, noBirth]) {
      expect(need).not.toHaveProperty('duplicateWarning')
      expect(await matchesOf(need.constituentId!)).toEqual([])
    }
  })

  test('the same last name and street address match, normalized the same way', async () => {
    const lastName = `O'${uniqueName()}`
    const existing = await register({ firstName: 'Maeve', lastName, addressStreet: '12 Main St.' })
    const need = await createNeed({
      customFields: { firstName: 'Sean', lastName: lastName.replace("'", '').toUpperCase(), addressStreet: '12  MAIN st' },
    })
    expect(need.duplicateWarning).toBe('Possible duplicate of 1 constituent: same last name and address')
    expect((await matchesOf(need.constituentId!)).map((m) => [m.candidateConstituentId, m.reason])).toEqual([
      [existing.id, 'same last name and address'],
    ])

    const elsewhere = await createNeed({ customFields: { lastName, addressStreet: '14 Main St.' } })
    expect(elsewhere).not.toHaveProperty('duplicateWarning')
  })

  test('without a candidate there is no duplicateWarning and no match', async () => {
    const need = await createNeed({
      customFields: { firstName: 'Unique', lastName: uniqueName(), phone: uniquePhone(), email: uniqueEmail() },
    })
    expect(need.constituentId).toBeString()
    expect(need).not.toHaveProperty('duplicateWarning')
    expect(await readNeed(need.id)).not.toHaveProperty('duplicateWarning')
    expect(await matchesOf(need.constituentId!)).toEqual([])
  })

  test("another organization's constituents are never candidates, either way", async () => {
    const phone = uniquePhone()
    const theirs = await register({ firstName: 'Theirs', lastName: uniqueName(), phone }, tokens.otherAdmin)
    const need = await createNeed({ customFields: { firstName: 'Mine', phone } })
    expect(need).not.toHaveProperty('duplicateWarning')
    expect(await matchesOf(need.constituentId!)).toEqual([])

    const theirNeed = await createNeed(
      { partnerId: other.defaultPartner.id, customFields: { firstName: 'Theirs again', phone } },
      tokens.otherAdmin,
    )
    expect(theirNeed.duplicateWarning).toBe('Possible duplicate of 1 constituent: same phone')
    const theirMatches = await allMatches(undefined, tokens.otherAdmin)
    expect(theirMatches.map((m) => [m.constituentId, m.candidateConstituentId])).toContainEqual([theirNeed.constituentId!, theirs.id])
    for (const match of theirMatches) {
      expect(match.organizationId).toBe(other.organizationId)
      expect([match.constituentId, match.candidateConstituentId]).not.toContain(need.constituentId)
    }
  })

  test('a need naming its constituent registers no one and raises no warning', async () => {
    const phone = uniquePhone()
    const existing = await register({ firstName: 'Known', lastName: uniqueName(), phone })
    const someone = await register({ firstName: 'Someone', lastName: uniqueName() })
    const need = await createNeed({ constituentId: someone.id, customFields: { firstName: 'Known', phone } })
    expect(need).toMatchObject({ constituentId: someone.id, householdId: someone.householdId })
    expect(need).not.toHaveProperty('duplicateWarning')
    expect(await matchesOf(existing.id)).toEqual([])
  })

  test('the public intake is checked too; the warning shows to staff only', async () => {
    const phone = uniquePhone()
    const existing = await register({ firstName: 'Walk', lastName: uniqueName(), phone })
    const response = await api.call<Need>('POST', '/api/needs/public', {
      body: { organizationId: world.organizationId, description: 'help with rent', customFields: { firstName: 'Walk', phone } },
    })
    expect(response.status).toBe(201)
    expect(response.body).not.toHaveProperty('duplicateWarning')
    const asStaff = await readNeed(response.body.id)
    expect(asStaff.duplicateWarning).toBe('Possible duplicate of 1 constituent: same phone')
    expect((await matchesOf(asStaff.constituentId!)).map((m) => m.candidateConstituentId)).toEqual([existing.id])
  })

  test('registering through POST /api/constituents opens the match as well, and answers who it may be and why', async () => {
    const email = uniqueEmail()
    const existing = await registered({ firstName: 'First', lastName: uniqueName(), email })
    expect(existing).not.toHaveProperty('possibleDuplicates')
    expect(existing).not.toHaveProperty('duplicateWarning')
    const created = await registered({ firstName: 'Second', lastName: uniqueName(), email: email.toUpperCase() })
    expect(created.possibleDuplicates).toEqual([{ constituentId: existing.id, reasons: ['same email'] }])
    expect(created.duplicateWarning).toBe('Possible duplicate of 1 constituent: same email')
    expect((await matchesOf(created.id)).map((m) => [m.constituentId, m.candidateConstituentId, m.reason])).toEqual([
      [created.id, existing.id, 'same email'],
    ])
  })
})

describe('duplicate detection through PUT /api/constituents/{id}', () => {
  const put = (id: string, body: unknown, token = tokens.admin) => api.call<Constituent>('PUT', `/api/constituents/${id}`, { token, body })

  test('a match appears once a contact change makes two constituents alike', async () => {
    const phone = uniquePhone()
    const first = await register({ firstName: 'Ann', lastName: uniqueName(), phone })
    const second = await register({ firstName: 'Bea', lastName: uniqueName(), phone: uniquePhone() })
    expect(await matchesOf(second.id)).toEqual([])

    expect((await put(second.id, { phone })).status).toBe(200)
    expect(await matchesOf(second.id)).toEqual([
      expect.objectContaining({
        constituentId: second.id,
        candidateConstituentId: first.id,
        reason: 'same phone',
        status: 'OPEN',
        organizationId: world.organizationId,
      }),
    ])
  })

  test('name and date of birth, or last name and street, arriving by update also match', async () => {
    const lastName = uniqueName()
    const byBirth = await register({ firstName: 'Cleo', lastName, dateOfBirth: '1970-01-02' })
    const byStreet = await register({ firstName: 'Dora', lastName, addressStreet: '1 Elm Street' })
    const changing = await register({ firstName: 'Cleo', lastName: uniqueName() })
    await put(changing.id, { lastName, dateOfBirth: '1970-01-02' })
    expect((await matchesOf(changing.id)).map((m) => [m.candidateConstituentId, m.reason])).toEqual([
      [byBirth.id, 'same name and date of birth'],
    ])
    await put(changing.id, { addressStreet: '1 ELM street' })
    expect((await matchesOf(changing.id)).map((m) => [m.candidateConstituentId, m.reason]).sort()).toEqual(
      [
        [byBirth.id, 'same name and date of birth'],
        [byStreet.id, 'same last name and address'],
      ].sort(),
    )
  })

  test('a pair gets one match: a second change toward the same person adds none, a dismissal stands', async () => {
    const phone = uniquePhone()
    const email = uniqueEmail()
    const first = await register({ firstName: 'Eve', lastName: uniqueName(), phone, email })
    const second = await register({ firstName: 'Fay', lastName: uniqueName() })
    await put(second.id, { phone })
    const [match] = await matchesOf(second.id)
    expect((await resolve(match!.id, { action: 'DISMISS' })).status).toBe(200)
    await put(second.id, { email })
    await put(second.id, { phone: null })
    await put(second.id, { phone })
    expect(await matchesOf(second.id)).toEqual([
      expect.objectContaining({ id: match!.id, candidateConstituentId: first.id, status: 'DISMISSED' }),
    ])
  })

  test('fieldOverrides of a merge are a contact change too: the merged constituent is checked again', async () => {
    const phone = uniquePhone()
    const lookalike = await register({ firstName: 'Ivy', lastName: uniqueName(), phone })
    const source = await register({ firstName: 'Jo', lastName: uniqueName() })
    const target = await register({ firstName: 'Jo', lastName: uniqueName(), phone: uniquePhone() })
    const response = await api.call('POST', '/api/constituents/merge', {
      token: tokens.admin,
      body: { sourceConstituentId: source.id, targetConstituentId: target.id, fieldOverrides: { phone } },
    })
    expect(response.status).toBe(200)
    expect((await matchesOf(target.id)).map((m) => [m.constituentId, m.candidateConstituentId, m.reason, m.status])).toEqual([
      [target.id, lookalike.id, 'same phone', 'OPEN'],
    ])
  })

  test('a change to a field detection does not look at opens no match', async () => {
    const zip = '12207'
    await register({ firstName: 'Gil', lastName: uniqueName(), addressZip: zip, addressCity: 'Albany' })
    const changing = await register({ firstName: 'Hal', lastName: uniqueName() })
    await put(changing.id, { addressZip: zip, addressCity: 'Albany', addressState: 'NY' })
    expect(await matchesOf(changing.id)).toEqual([])
  })
})
