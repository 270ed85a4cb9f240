import { beforeEach, describe, expect, test } from 'bun:test'
import type { SearchConstituents } from '../../../src/application/constituents/search-constituents'
import type { Actor } from '../../../src/domain/auth/actor'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import { SEARCH_TOTAL_BOUND } from '../../../src/domain/constituents/search'
import { ForbiddenError } from '../../../src/domain/errors'
import { aConstituent, aContact, aHousehold } from '../../support/builders'
import { createWorld, type World } from '../../support/world'
import { failureOf } from '../failure-of'
import { ALL, register } from './steps'

let world: World
let search: SearchConstituents
let jose: Constituent
let mary: Constituent
let lee: Constituent
beforeEach(async () => {
  world = await createWorld()
  search = world.useCases.constituents.search
  jose = await register(world, aContact({ firstName: 'José', lastName: 'García López', email: 'jose.garcia@example.org' }))
  mary = await register(world, { firstName: 'Mary-Ann', lastName: "O'Brien", phone: '+442071838750', email: 'Mary@Example.org' })
  lee = await register(world, { firstName: 'Lee', lastName: 'Josephs' })
})

const idsFor = async (query: string | undefined, actor: Actor = world.admin) =>
  (await search.execute(actor, query, ALL)).items.map((c) => c.id)

describe('SearchConstituents', () => {
  describe('an empty query', () => {
    test("lists the organization's constituents, newest first", async () => {
      expect(await idsFor(undefined)).toEqual([lee.id, mary.id, jose.id])
      expect(await idsFor('  ')).toEqual([lee.id, mary.id, jose.id])
    })

    test("never lists another organization's constituents", async () => {
      const other = await world.otherOrganization()
      await register(other, { firstName: 'José', phone: '+15551234567' })
      expect(await idsFor('')).toEqual([lee.id, mary.id, jose.id])
      expect(await idsFor('jose')).toEqual([lee.id, jose.id])
    })

    test('pages the list and tells the total', async () => {
      const pages = await Promise.all([1, 2, 3].map((page) => search.execute(world.admin, '', { page, limit: 2 })))
      expect(pages.map((p) => p.items.map((c) => c.id))).toEqual([[lee.id, mary.id], [jose.id], []])
      expect(pages.map((p) => p.total)).toEqual([3, 3, 3])
    })
  })

  describe('names', () => {
    test('match a prefix of the first or the last name', async () => {
      expect(await idsFor('jos')).toEqual([lee.id, jose.id])
      expect(await idsFor('garc')).toEqual([jose.id])
      expect(await idsFor('lop')).toEqual([jose.id])
    })

    test('ignore case and accents, in the query and in the name', async () => {
      expect(await idsFor('JOSÉ G')).toEqual([jose.id])
      expect(await idsFor('JOSÉ')).toEqual([lee.id, jose.id])
      expect(await idsFor('GARCIA')).toEqual([jose.id])
      expect(await idsFor('obrien')).toEqual([mary.id])
      expect(await idsFor("o'bri")).toEqual([mary.id])
    })

    test('need every word of the query to begin a name word', async () => {
      expect(await idsFor('jose lop')).toEqual([jose.id])
      expect(await idsFor('mary ann')).toEqual([mary.id])
      expect(await idsFor('jose smith')).toEqual([])
    })

    test('do not match the middle of a name', async () => {
      expect(await idsFor('arcia')).toEqual([])
      expect(await idsFor('ephs')).toEqual([])
    })

    test('do not match email, street or city words', async () => {
      expect(await idsFor('main')).toEqual([])
      expect(await idsFor('example')).toEqual([])
    })
  })

  describe('phone digits', () => {
    test('match a prefix of the number, written with any punctuation, with or without +1', async () => {
      for (const query of ['555', '555-123', '(555) 123-4567', '+1 555 123', '1555123', '555.123.4567']) {
        expect(await idsFor(query)).toEqual([jose.id])
      }
    })

    test('match numbers of other countries by their digits', async () => {
      expect(await idsFor('+44 20 7183')).toEqual([mary.id])
    })

    test('match any part of the number', async () => {
      expect(await idsFor('1234567')).toEqual([jose.id])
      expect(await idsFor('4567')).toEqual([jose.id])
      expect(await idsFor('183')).toEqual([mary.id])
      expect(await idsFor('4568')).toEqual([])
    })
  })

  describe('email', () => {
    test('matches the whole address, whatever its case', async () => {
      expect(await idsFor('JOSE.GARCIA@example.org')).toEqual([jose.id])
      expect(await idsFor(' mary@example.ORG ')).toEqual([mary.id])
    })

    test('does not match part of an address', async () => {
      expect(await idsFor('jose.garcia@')).toEqual([])
      expect(await idsFor('@example.org')).toEqual([])
    })
  })

  describe('a common name', () => {
    test('is counted up to the bound and said to be more; only the page is read, and audited, redacted as always', async () => {
      const household = aHousehold({ organizationId: world.organizationId })
      const garcias = Array.from({ length: SEARCH_TOTAL_BOUND }, (_, n) =>
        aConstituent({
          organizationId: world.organizationId,
          householdId: household.id,
          firstName: `Ana${n}`,
          lastName: 'Garcia',
          phone: '+15550000000',
          addressStreet: '1 Main St',
        }),
      )
      await world.repositories.constituents.insertHousehold(household)
      await world.repositories.constituents.insertMany(garcias)
      // One who sees phones: each person shown is a read of personal details, audited.
      const staff = await world.member('staff', { profiles: ['email_phone_communicator'] })

      // José García López and the thousand: more than the bound.
      const found = await search.execute(staff, 'garcia', { page: 1, limit: 25 })
      expect(found).toMatchObject({ total: SEARCH_TOTAL_BOUND, totalIsLowerBound: true })
      expect(found.items).toHaveLength(25)
      expect(found.items.every((c) => c.phone === '+15550000000' || c.id === jose.id)).toBe(true)
      expect(found.items.filter((c) => 'addressStreet' in c || 'dateOfBirth' in c)).toEqual([])
      const reads = await world.repositories.auditEvents.list(world.organizationId, { memberId: staff.memberId, action: 'read' }, ALL)
      expect(reads.items.map((e) => e.recordId).sort()).toEqual(found.items.map((c) => c.id).sort())
      // Narrowed, it is exact again.
      const narrowed = await search.execute(staff, 'jose garcia', ALL)
      expect(narrowed.items.map((c) => c.id)).toEqual([jose.id])
      expect(narrowed).not.toHaveProperty('totalIsLowerBound')
      expect(narrowed.total).toBe(1)
    })
  })

  describe('redaction', () => {
    const PII = ['phone', 'email', 'addressStreet', 'addressCity', 'addressState', 'addressZip', 'dateOfBirth']
    const foundBy = async (actor: Actor) => (await search.execute(actor, 'jose garcia', ALL)).items[0]!

    test('org_admin, partner_admin and pii_reader holders see every field', async () => {
      const actors = [
        world.admin,
        await world.member('partner_admin', { partnerId: world.defaultPartner.id }),
        await world.member('staff', { profiles: ['pii_reader'] }),
        await world.member('volunteer', { partnerId: world.defaultPartner.id, profiles: ['intake_staff', 'pii_reader'] }),
      ]
      for (const actor of actors) expect(await foundBy(actor)).toEqual(jose)
    })

    test('email_phone_communicator holders see phone and email but not address or date of birth', async () => {
      const found = await foundBy(await world.member('staff', { profiles: ['email_phone_communicator'] }))
      expect(found).toMatchObject({ firstName: 'José', phone: jose.phone, email: jose.email })
      for (const field of ['addressStreet', 'addressState', 'addressZip', 'dateOfBirth']) expect(field in found).toBe(false)
    })

    test('staff and partner_agent see names but none of phone, email, address, date of birth', async () => {
      for (const actor of [await world.member('staff'), await world.member('partner_agent', { partnerId: world.defaultPartner.id })]) {
        const found = await foundBy(actor)
        expect(found).toMatchObject({ id: jose.id, householdId: jose.householdId, firstName: 'José', lastName: 'García López' })
        expect(PII.filter((field) => field in found)).toEqual([])
      }
    })
  })

  describe('who may search', () => {
    test('a volunteer with intake_staff may', async () => {
      const volunteer = await world.member('volunteer', { partnerId: world.defaultPartner.id, profiles: ['intake_staff'] })
      expect(await idsFor('jose', volunteer)).toEqual([lee.id, jose.id])
    })

    test('a volunteer without intake_staff may not', async () => {
      const volunteer = await world.member('volunteer', {
        partnerId: world.defaultPartner.id,
        profiles: ['pii_reader', 'email_phone_communicator'],
      })
      await failureOf(search.execute(volunteer, 'jose', ALL), ForbiddenError)
    })
  })
})
