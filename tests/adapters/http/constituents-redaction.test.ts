import { fieldsSeenBy, PERSONAL_FIELDS } from '../../support/contact-fields'
import { uniquePhone } from '../../support/builders'
import { beforeAll, describe, expect, test } from 'bun:test'
import type { ConstituentFields } from './helpers'
import { api, openConstituentsServer, partnerA, tokens } from './constituents-support'
import { type Constituent, constituentNeeds, createNeed, fullPerson } from './constituents-support'
import { type Need, readBack, register, search } from './constituents-support'

// docs/api/access.md "Permissions": who sees a person's phone, email, address and date of birth, over real HTTP,
// on the constituent and on the same keys in needs' customFields. What a caller may not read it must not
// see, nor lose by an update that leaves it out.
openConstituentsServer()

describe('redaction of phone, email, address and date of birth (docs/api/access.md "Permissions")', () => {
  let person: Required<ConstituentFields>
  let constituent: Constituent
  let need: Need

  beforeAll(async () => {
    person = fullPerson()
    constituent = await register(person)
    need = await createNeed({ partnerId: partnerA.id, constituentId: constituent.id, customFields: { ...person, program: 'winter' } })
  })

  /** Who sees which of the nine fields; names are never hidden. */
  const VIEWERS: Array<[label: string, token: () => string, visible: readonly string[]]> = [
    ['org_admin', () => tokens.admin, fieldsSeenBy('personal')],
    ['partner_admin', () => tokens.partnerAdminA, fieldsSeenBy('personal')],
    ['staff with pii_reader', () => tokens.piiStaff, fieldsSeenBy('personal')],
    ['staff with email_phone_communicator', () => tokens.contactStaff, fieldsSeenBy('contact')],
    ['staff', () => tokens.staff, fieldsSeenBy('everyone')],
    ['partner_agent', () => tokens.agentA, fieldsSeenBy('everyone')],
    ['volunteer with intake_staff', () => tokens.intakeVolunteerA, fieldsSeenBy('everyone')],
  ]
  const sorted = (keys: readonly string[]) => [...keys].sort()

  test.each(VIEWERS)('%s: on search, the PUT and POST answers', async (_label, token, visible) => {
    const found = await search(person.lastName, token())
    expect(found.body).toHaveLength(1)
    expect(sorted(Object.keys(found.body[0]!))).toEqual(sorted(['id', 'householdId', ...visible]))
    expect(found.body[0]).toMatchObject(Object.fromEntries(visible.map((f) => [f, person[f as keyof typeof person]])))

    const updated = await api.call<Constituent>('PUT', `/api/constituents/${constituent.id}`, {
      token: token(),
      body: { addressCity: person.addressCity },
    })
    expect(updated.status).toBe(200)
    expect(sorted(Object.keys(updated.body))).toEqual(sorted(['id', 'householdId', ...visible]))

    const created = await register({ ...fullPerson(), firstName: 'Registered' }, token())
    expect(sorted(Object.keys(created))).toEqual(sorted(['id', 'householdId', ...visible]))
  })

  test.each(VIEWERS)("%s: on the same keys inside needs' customFields, wherever a need is answered", async (_label, token, visible) => {
    const expected = sorted(['program', ...visible])
    const read = await api.call<Need>('GET', `/api/needs/${need.id}`, { token: token() })
    expect(sorted(Object.keys(read.body.customFields))).toEqual(expected)
    const listed = await api.call<Need[]>('GET', `/api/needs?constituentId=${constituent.id}`, { token: token() })
    expect(sorted(Object.keys(listed.body.find((n) => n.id === need.id)!.customFields))).toEqual(expected)
    const ofConstituent = await constituentNeeds(constituent.id, token())
    expect(sorted(Object.keys(ofConstituent.body.find((n) => n.id === need.id)!.customFields))).toEqual(expected)
    const created = await createNeed(
      { partnerId: partnerA.id, constituentId: constituent.id, customFields: { ...person, program: 'spring' } },
      token(),
    )
    expect(sorted(Object.keys(created.customFields))).toEqual(expected)
    for (const field of visible) expect(read.body.customFields[field]).toBe(person[field as keyof typeof person])
  })

  test('a caller who cannot read a field keeps it by updating the others', async () => {
    const updated = await api.call<Constituent>('PUT', `/api/constituents/${constituent.id}`, {
      token: tokens.staff,
      body: { firstName: 'Augusta' },
    })
    expect(updated.body).toEqual({
      id: constituent.id,
      householdId: constituent.householdId,
      firstName: 'Augusta',
      lastName: person.lastName,
    })
    expect(await readBack(constituent.id, person.lastName)).toEqual({ ...constituent, firstName: 'Augusta' })
    await api.call('PUT', `/api/constituents/${constituent.id}`, { token: tokens.admin, body: { firstName: person.firstName } })
  })

  test('a need update by a caller who cannot see contact keys keeps them: what it never saw is not deleted', async () => {
    const fields = { ...fullPerson(), program: 'winter' }
    const kept = await createNeed({ partnerId: partnerA.id, constituentId: constituent.id, customFields: fields })
    const asStaff = await api.call<Need>('PUT', `/api/needs/${kept.id}`, {
      token: tokens.staff,
      body: { customFields: { firstName: 'Ada', program: 'spring' } },
    })
    expect(asStaff.status).toBe(200)
    expect(asStaff.body.customFields).toEqual({ firstName: 'Ada', program: 'spring' })
    const { lastName: _removed, ...afterStaff } = { ...fields, program: 'spring' }
    expect((await api.call<Need>('GET', `/api/needs/${kept.id}`, { token: tokens.admin })).body.customFields).toEqual(afterStaff)

    // A communicator sees phone and email: those it leaves out are removed, the address and birth date stay.
    const newPhone = uniquePhone()
    const asCommunicator = await api.call<Need>('PUT', `/api/needs/${kept.id}`, {
      token: tokens.contactStaff,
      body: { customFields: { firstName: 'Ada', phone: newPhone } },
    })
    expect(asCommunicator.body.customFields).toEqual({ firstName: 'Ada', phone: newPhone })
    const left = [...fieldsSeenBy('everyone'), ...PERSONAL_FIELDS] as string[]
    const hidden = Object.fromEntries(Object.entries(afterStaff).filter(([key]) => left.includes(key)))
    expect((await api.call<Need>('GET', `/api/needs/${kept.id}`, { token: tokens.admin })).body.customFields).toEqual({
      ...hidden,
      phone: newPhone,
    })
  })

  test('a need update answer is redacted the same way', async () => {
    const response = await api.call<Need>('PUT', `/api/needs/${need.id}`, { token: tokens.staff, body: { status: 'IN_PROGRESS' } })
    expect(response.status).toBe(200)
    expect(sorted(Object.keys(response.body.customFields))).toEqual(sorted(['program', ...fieldsSeenBy('everyone')]))
    expect((await api.call<Need>('GET', `/api/needs/${need.id}`, { token: tokens.admin })).body.customFields).toEqual({
      ...person,
      program: 'winter',
    })
  })
})
