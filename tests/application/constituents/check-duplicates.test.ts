import { beforeEach, describe, expect, test } from 'bun:test'
import type { CheckDuplicates } from '../../../src/application/constituents/check-duplicates'
import { ForbiddenError, InvalidError } from '../../../src/domain/errors'
import { WITHHELD_DUPLICATE_WARNING } from '../../../src/domain/constituents/duplicate-hints'
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

  test('a reader of names only learns that someone alike exists, not who, and reads no one', async () => {
    const ana = await register(world, aContact())
    const staff = await world.member('staff')
    expect(await check.execute(staff, { firstName: 'Other', phone: ana.phone })).toEqual({
      possibleDuplicates: [],
      duplicateWarning: WITHHELD_DUPLICATE_WARNING,
    })
    expect(await readsOf(staff.memberId)).toEqual([])
  })

  test('a reader of phones and emails is told those reasons only', async () => {
    const ana = await register(world, aContact())
    const reader = await world.member('staff', { profiles: ['email_phone_communicator'] })
    const answer = await check.execute(reader, { ...aContact(), email: 'someone.else@example.org' })
    expect(answer).toEqual({
      possibleDuplicates: [{ constituentId: ana.id, firstName: 'Ana', lastName: 'Lopez', reasons: ['same phone'] }],
      duplicateWarning: 'Possible duplicate: same phone; and on details you may not read',
    })
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
