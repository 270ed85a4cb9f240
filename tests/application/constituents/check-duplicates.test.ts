import { beforeEach, describe, expect, test } from 'bun:test'
import type { CheckDuplicates } from '../../../src/application/constituents/check-duplicates'
import { ForbiddenError, InvalidError } from '../../../src/domain/errors'
import { parseConstituentQuery } from '../../../src/domain/constituents/search'
import { aContact } from '../../support/builders'
import { createWorld, type World } from '../../support/world'
import { failureOf, pathsOf } from '../failure-of'
import { ALL, register } from './steps'

// docs/constituents.md "Duplicate detection": who a person may be already, asked before registering them.
let world: World
let check: CheckDuplicates
beforeEach(async () => {
  world = await createWorld()
  check = world.useCases.constituents.checkDuplicates
})

const readsOf = async (memberId: string) =>
  (await world.repositories.auditEvents.list(world.organizationId, { action: 'read', memberId }, ALL)).items.map((e) => ({
    recordId: e.recordId,
    fields: e.fields,
  }))
/** Counted from the store: a search would itself record reads. */
const constituentCount = async () =>
  (await world.repositories.constituents.search(world.organizationId, parseConstituentQuery(''), ALL)).total

describe('CheckDuplicates', () => {
  test('names who the details may be, by name, with every reason, to a reader of every detail', async () => {
    const ana = await register(world, aContact())
    const answer = await check.execute(world.admin, { firstName: 'Anna', lastName: 'Lopez', phone: ana.phone, addressStreet: '12 Main St' })
    expect(answer).toEqual({
      possibleDuplicates: [
        { constituentId: ana.id, firstName: 'Ana', lastName: 'Lopez', reasons: ['same phone', 'same last name and address'] },
      ],
      duplicateWarning: 'Possible duplicate of 1 constituent: same phone, same last name and address',
    })
  })

  test('stores nothing: no constituent, no household match; the candidates shown are reads of them', async () => {
    const ana = await register(world, aContact())
    const before = {
      people: await constituentCount(),
      matches: await world.repositories.householdMatches.listInvolving(world.organizationId, ana.id),
    }
    await check.execute(world.admin, { firstName: 'Other', phone: ana.phone })
    expect(await readsOf(world.admin.memberId)).toEqual([{ recordId: ana.id, fields: ['phone'] }])
    expect({
      people: await constituentCount(),
      matches: await world.repositories.householdMatches.listInvolving(world.organizationId, ana.id),
    }).toEqual(before)
  })

  // A match on a detail the caller may not read would tell it whether that detail is on file: such a
  // detail is not matched on at all, so guessing it (366 dates of birth, say) learns nothing.
  const MAY_1980 = Array.from({ length: 31 }, (_, day) => `1980-05-${String(day + 1).padStart(2, '0')}`)
  const lacking = {
    phone: { reader: () => world.member('staff'), guesses: ['+15551234567', '+15557654321'] },
    email: {
      reader: () => world.member('partner_agent', { partnerId: world.defaultPartner.id }),
      guesses: ['ana@example.org', 'bo@example.org'],
    },
    dateOfBirth: { reader: () => world.member('staff', { profiles: ['email_phone_communicator'] }), guesses: MAY_1980 },
    addressStreet: {
      reader: () => world.member('staff', { profiles: ['email_phone_communicator'] }),
      guesses: ['12 Main St', '13 Main St'],
    },
  } as const
  test.each(Object.keys(lacking) as Array<keyof typeof lacking>)(
    'a caller who may not read %s gets the same answer whether or not it is on file, and reads no one',
    async (field) => {
      await register(world, aContact())
      const { reader, guesses } = lacking[field]
      const caller = await reader()
      const answers = await Promise.all(
        guesses.map((guess) => check.execute(caller, { firstName: 'Ana', lastName: 'Lopez', [field]: guess })),
      )
      expect(new Set(answers.map((answer) => JSON.stringify(answer)))).toEqual(new Set([JSON.stringify({ possibleDuplicates: [] })]))
      expect(await readsOf(caller.memberId)).toEqual([])
    },
  )

  test('a detail the caller may not read strengthens no match: the candidate is shown for what it may read, counted alike', async () => {
    const ana = await register(world, aContact())
    const reader = await world.member('staff', { profiles: ['email_phone_communicator'] })
    const [right, wrong] = await Promise.all(
      ['1980-05-01', '1980-05-02'].map((dateOfBirth) =>
        check.execute(reader, { firstName: 'Ana', lastName: 'Lopez', email: ana.email, dateOfBirth, addressStreet: ana.addressStreet }),
      ),
    )
    expect(right).toEqual({
      possibleDuplicates: [{ constituentId: ana.id, firstName: 'Ana', lastName: 'Lopez', reasons: ['same email'] }],
      duplicateWarning: 'Possible duplicate of 1 constituent: same email',
    })
    expect(wrong).toEqual(right)
    expect((await readsOf(reader.memberId)).map((read) => read.fields)).toEqual([['email'], ['email']])
  })

  test('whoever may read a detail still matches on it', async () => {
    const ana = await register(world, aContact({ phone: '+15550000001', email: 'other@example.org' }))
    const found = await check.execute(world.admin, { firstName: 'Ana', lastName: 'Lopez', dateOfBirth: ana.dateOfBirth })
    expect(found.possibleDuplicates).toEqual([
      { constituentId: ana.id, firstName: 'Ana', lastName: 'Lopez', reasons: ['same name and date of birth'] },
    ])
    const reader = await world.member('staff', { profiles: ['email_phone_communicator'] })
    expect((await check.execute(reader, { firstName: 'x', phone: ana.phone })).possibleDuplicates).toEqual([
      { constituentId: ana.id, firstName: 'Ana', lastName: 'Lopez', reasons: ['same phone'] },
    ])
  })

  test('finds no one of another organization, and no one for details that match nobody or give no key', async () => {
    const other = await world.otherOrganization()
    const elsewhere = await other.useCases.constituents.create.execute(other.admin, aContact())
    expect(await check.execute(world.admin, aContact())).toEqual({ possibleDuplicates: [] })
    await register(world, aContact())
    const found = await check.execute(world.admin, aContact())
    expect(found.possibleDuplicates.map((d) => d.constituentId)).not.toContain(elsewhere.id)
    expect(await check.execute(world.admin, { firstName: 'Nobody' })).toEqual({ possibleDuplicates: [] })
  })

  test('checks the details as a creation does: each bad one is named', async () => {
    const error = await failureOf(check.execute(world.admin, { phone: '555', addressZip: 'x' }), InvalidError)
    expect(pathsOf(error).sort()).toEqual(['/addressZip', '/phone'])
  })

  test('is for those who may read constituents', async () => {
    const volunteer = await world.member('volunteer', { partnerId: world.defaultPartner.id })
    await failureOf(check.execute(volunteer, { firstName: 'Ana' }), ForbiddenError)
  })
})
