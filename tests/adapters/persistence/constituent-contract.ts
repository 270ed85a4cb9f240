import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { Repositories } from '../../../src/application/ports/repositories'
import type { Constituent, Household } from '../../../src/domain/constituents/constituent'
import { CONTACT_FIELDS, type ContactDetails } from '../../../src/domain/constituents/contact'
import { matchKeysOf, type MatchKeys } from '../../../src/domain/constituents/matching'
import { parseConstituentQuery } from '../../../src/domain/constituents/search'
import type { Need } from '../../../src/domain/needs/need'
import type { Organization } from '../../../src/domain/organizations/organization'
import type { Partner } from '../../../src/domain/partners/partner'
import { aNeed } from '../../support/builders'
import { aConstituent, aHousehold, aHouseholdMatch, ascendingIds, byId, ids, minute, presentKeys } from './contract-support'

export interface ContractHelpers {
  read(): Repositories
  write<T>(work: (r: Repositories) => Promise<T>): Promise<T>
  anOrganizationWithPartner(): Promise<{ organization: Organization; partner: Partner }>
  insertNeeds(...needs: Need[]): Promise<void>
}

const every = { page: 1, limit: 100 }

/** The constituent, household and household-match part of the repository contract. */
export function describeConstituentContract({ read, write, anOrganizationWithPartner, insertNeeds }: ContractHelpers): void {
  async function anOrganizationId() {
    return (await anOrganizationWithPartner()).organization.id
  }

  async function insertHouseholds(...households: Household[]) {
    await write(async (r) => {
      for (const household of households) await r.constituents.insertHousehold(household)
    })
  }

  async function insertConstituents(...constituents: Constituent[]) {
    await write(async (r) => {
      for (const constituent of constituents) await r.constituents.insert(constituent)
    })
  }

  /** A household of the organization, committed, and a builder of constituents living in it. */
  async function aHome(organizationId: string) {
    const household = aHousehold({ organizationId })
    await insertHouseholds(household)
    const member = (overrides: Partial<Constituent> = {}) => aConstituent({ organizationId, householdId: household.id, ...overrides })
    return { household, member }
  }

  const fullContact = {
    firstName: 'Chloé',
    lastName: 'Núñez-García',
    phone: '+15551230100',
    email: 'Chloe.Nunez@Example.org',
    dateOfBirth: '1984-02-29',
    addressStreet: '12 Elm St., Apt 4',
    addressCity: 'Springfield',
    addressState: 'IL',
    addressZip: '62701',
  } satisfies Required<ContactDetails>

  describe('constituents', () => {
    test('keeps every contact field through insert and find', async () => {
      const org = await anOrganizationId()
      const { member } = await aHome(org)
      const constituent = member({ ...fullContact, createdAt: minute(3), updatedAt: minute(4) })
      await insertConstituents(constituent)

      expect(await read().constituents.findById(org, constituent.id)).toEqual(constituent)
    })

    test('leaves absent contact fields absent, not null', async () => {
      const org = await anOrganizationId()
      const { member } = await aHome(org)
      const bare = member()
      const named = member({ lastName: 'Only', phone: undefined })
      await insertConstituents(bare, named)

      const found = await read().constituents.findById(org, bare.id)
      expect(found).toEqual(bare)
      expect(presentKeys(found, [...CONTACT_FIELDS])).toEqual([])
      const foundNamed = await read().constituents.findById(org, named.id)
      expect(foundNamed).toEqual({ ...bare, id: named.id, lastName: 'Only' })
      expect(presentKeys(foundNamed, [...CONTACT_FIELDS])).toEqual(['lastName'])
    })

    test('answers undefined for an unknown id and for another organization’s constituent', async () => {
      const a = await anOrganizationId()
      const b = await anOrganizationId()
      const { member } = await aHome(a)
      const constituent = member({ firstName: 'Ana' })
      await insertConstituents(constituent)

      expect(await read().constituents.findById(a, randomUUID())).toBeUndefined()
      expect(await read().constituents.findById(b, constituent.id)).toBeUndefined()
    })

    test('finds several by id at once, only in the organization, leaving out unknown ids', async () => {
      const a = await anOrganizationId()
      const b = await anOrganizationId()
      const { member } = await aHome(a)
      const [ana, bo, cy] = [member({ firstName: 'Ana' }), member({ ...fullContact, firstName: 'Bo' }), member({ firstName: 'Cy' })]
      await insertConstituents(ana, bo, cy)

      const found = await read().constituents.findByIds(a, [bo.id, ana.id, randomUUID(), bo.id])
      expect(byId(found)).toEqual(byId([ana, bo]))
      expect(await read().constituents.findByIds(b, [ana.id, bo.id])).toEqual([])
      expect(await read().constituents.findByIds(a, [])).toEqual([])
    })

    test('updates fields, clears the ones left out or given as undefined, and keeps createdAt', async () => {
      const org = await anOrganizationId()
      const { member } = await aHome(org)
      const other = await aHome(org)
      const constituent = member({ ...fullContact, createdAt: minute(1), updatedAt: minute(1) })
      await insertConstituents(constituent)

      const { addressCity: _city, addressZip: _zip, ...kept } = constituent
      await write((r) =>
        r.constituents.update({
          ...kept,
          householdId: other.household.id,
          firstName: 'Zoë',
          email: undefined,
          createdAt: minute(50),
          updatedAt: minute(9),
        }),
      )

      const found = await read().constituents.findById(org, constituent.id)
      const { email: _email, ...expected } = { ...kept, householdId: other.household.id, firstName: 'Zoë', updatedAt: minute(9) }
      expect(found).toEqual(expected)
      expect(presentKeys(found, ['email', 'addressCity', 'addressZip'])).toEqual([])
    })

    test('never updates or deletes another organization’s constituent', async () => {
      const a = await anOrganizationId()
      const b = await anOrganizationId()
      const { member } = await aHome(a)
      const constituent = member({ firstName: 'Ana', phone: '+15551230101' })
      await insertConstituents(constituent)

      await write(async (r) => {
        await r.constituents.update({ ...constituent, organizationId: b, firstName: 'Hijacked' })
        await r.constituents.delete(b, constituent.id)
      })

      expect(await read().constituents.findById(a, constituent.id)).toEqual(constituent)
      expect(await read().constituents.findById(b, constituent.id)).toBeUndefined()
    })

    test('deletes a constituent; deleting an unknown one is no error', async () => {
      const org = await anOrganizationId()
      const { household, member } = await aHome(org)
      const gone = member({ firstName: 'Gone', createdAt: minute(1) })
      const stays = member({ firstName: 'Stays', createdAt: minute(2) })
      await insertConstituents(gone, stays)

      await write(async (r) => {
        await r.constituents.delete(org, gone.id)
        await r.constituents.delete(org, randomUUID())
      })

      expect(await read().constituents.findById(org, gone.id)).toBeUndefined()
      expect(await read().constituents.findById(org, stays.id)).toEqual(stays)
      expect(await read().constituents.listByHousehold(org, household.id)).toEqual([stays])
    })

    test('a failed transaction keeps none of its constituents', async () => {
      const org = await anOrganizationId()
      const household = aHousehold({ organizationId: org })
      const constituent = aConstituent({ organizationId: org, householdId: household.id, firstName: 'Never' })
      const failure = new Error('late failure')

      const outcome = write(async (r) => {
        await r.constituents.insertHousehold(household)
        await r.constituents.insert(constituent)
        throw failure
      })

      await expect(outcome).rejects.toBe(failure)
      expect(await read().constituents.findById(org, constituent.id)).toBeUndefined()
      expect(await read().constituents.householdExists(org, household.id)).toBe(false)
    })

    describe('households', () => {
      test('a household exists for its organization only', async () => {
        const a = await anOrganizationId()
        const b = await anOrganizationId()
        const { household } = await aHome(a)

        expect(await read().constituents.householdExists(a, household.id)).toBe(true)
        expect(await read().constituents.householdExists(b, household.id)).toBe(false)
        expect(await read().constituents.householdExists(a, randomUUID())).toBe(false)
      })

      test('lists the members of one household of the organization', async () => {
        const a = await anOrganizationId()
        const b = await anOrganizationId()
        const home = await aHome(a)
        const neighbours = await aHome(a)
        const [low, high] = ascendingIds(2) as [string, string]
        const members = [
          home.member({ firstName: 'Later', createdAt: minute(9) }),
          home.member({ id: high, firstName: 'Tie high', createdAt: minute(2) }),
          home.member({ firstName: 'Earliest', createdAt: minute(1) }),
          home.member({ id: low, firstName: 'Tie low', createdAt: minute(2) }),
        ]
        await insertConstituents(...members, neighbours.member({ firstName: 'Neighbour' }))

        const listed = await read().constituents.listByHousehold(a, home.household.id)
        expect(byId(listed)).toEqual(byId(members))
        expect(await read().constituents.listByHousehold(b, home.household.id)).toEqual([])
        expect(await read().constituents.listByHousehold(a, randomUUID())).toEqual([])
      })

      test('deleteHouseholdIfUnused keeps a household while a constituent or a need points at it', async () => {
        const { organization, partner } = await anOrganizationWithPartner()
        const org = organization.id
        const withMember = await aHome(org)
        const resident = withMember.member({ firstName: 'Resident' })
        await insertConstituents(resident)
        const withNeed = await aHome(org)
        await insertNeeds(aNeed({ organizationId: org, partnerId: partner.id, householdId: withNeed.household.id }))

        expect(await write((r) => r.constituents.deleteHouseholdIfUnused(org, withMember.household.id))).toBe(false)
        expect(await write((r) => r.constituents.deleteHouseholdIfUnused(org, withNeed.household.id))).toBe(false)
        expect(await read().constituents.householdExists(org, withMember.household.id)).toBe(true)
        expect(await read().constituents.householdExists(org, withNeed.household.id)).toBe(true)

        // Once the last member has moved out, the household goes.
        await write((r) => r.constituents.update({ ...resident, householdId: withNeed.household.id }))
        expect(await write((r) => r.constituents.deleteHouseholdIfUnused(org, withMember.household.id))).toBe(true)
        expect(await read().constituents.householdExists(org, withMember.household.id)).toBe(false)
      })

      test('deleteHouseholdIfUnused removes nothing of another organization and nothing unknown', async () => {
        const a = await anOrganizationId()
        const b = await anOrganizationId()
        const { household } = await aHome(a)

        expect(await write((r) => r.constituents.deleteHouseholdIfUnused(b, household.id))).toBe(false)
        expect(await write((r) => r.constituents.deleteHouseholdIfUnused(a, randomUUID()))).toBe(false)
        expect(await read().constituents.householdExists(a, household.id)).toBe(true)
      })
    })

    describe('findByMatchKeys', () => {
      const base = {
        firstName: 'Ana',
        lastName: 'Pérez',
        phone: '+15551110001',
        email: 'Ana.Perez@Example.org',
        dateOfBirth: '1980-02-03',
        addressStreet: '12 Elm St',
      }

      /** One constituent per key sharing only that key with `base`, near misses sharing none, and a twin elsewhere. */
      async function matchWorld() {
        const org = await anOrganizationId()
        const foreignOrg = await anOrganizationId()
        const { member } = await aHome(org)
        const original = member({ ...base })
        const samePhone = member({ firstName: 'Bo', lastName: 'Lind', phone: base.phone })
        const sameEmail = member({ firstName: 'Cy', lastName: 'Moe', email: 'ana.perez@EXAMPLE.ORG' })
        // Case and accents differ: the normalized name and the date of birth are the same.
        const sameNameBirth = member({ firstName: 'ANA', lastName: 'perez', dateOfBirth: base.dateOfBirth, phone: '+15551110002' })
        const sameLastStreet = member({ firstName: 'Luis', lastName: 'PÉREZ', addressStreet: '12 elm st.' })
        const nearMisses = [
          member({ ...base, phone: '+15551110009', email: 'ana.perez@example.net', dateOfBirth: '1980-02-04', addressStreet: '14 Elm St' }),
          member({ firstName: 'Anabel', lastName: 'Pérez', dateOfBirth: base.dateOfBirth }),
          member({ firstName: 'Ana', lastName: 'Perezz', dateOfBirth: base.dateOfBirth, addressStreet: base.addressStreet }),
          member({ firstName: 'Ana', lastName: 'Pérez' }),
          member({ email: 'ana.perez@example.org.uk' }),
        ]
        await insertConstituents(original, samePhone, sameEmail, sameNameBirth, sameLastStreet, ...nearMisses)
        const foreignHome = await aHome(foreignOrg)
        const twin = foreignHome.member({ ...base })
        await insertConstituents(twin)
        return { org, foreignOrg, original, samePhone, sameEmail, sameNameBirth, sameLastStreet, twin, keys: matchKeysOf(base) }
      }
      const find = (org: string, keys: MatchKeys, excludeId: string = randomUUID(), limit = 20) =>
        read().constituents.findByMatchKeys(org, keys, excludeId, limit)

      test('finds the constituents sharing any key, leaving out the excluded one', async () => {
        const w = await matchWorld()

        const found = await find(w.org, w.keys, w.original.id)
        expect(byId(found)).toEqual(byId([w.samePhone, w.sameEmail, w.sameNameBirth, w.sameLastStreet]))
      })

      test('finds by each key alone', async () => {
        const w = await matchWorld()

        expect(byId(await find(w.org, { phone: w.keys.phone }))).toEqual(byId([w.original, w.samePhone]))
        expect(byId(await find(w.org, { email: w.keys.email }))).toEqual(byId([w.original, w.sameEmail]))
        expect(byId(await find(w.org, { nameAndBirth: w.keys.nameAndBirth }))).toEqual(byId([w.original, w.sameNameBirth]))
        expect(byId(await find(w.org, { lastNameAndStreet: w.keys.lastNameAndStreet }))).toEqual(byId([w.original, w.sameLastStreet]))
      })

      test('finds the email whatever its case, and the name whatever its case and accents', async () => {
        const w = await matchWorld()

        expect(byId(await find(w.org, matchKeysOf({ email: '  ANA.PEREZ@example.ORG ' })))).toEqual(byId([w.original, w.sameEmail]))
        const accented = matchKeysOf({ firstName: 'ÁNA', lastName: 'PEREZ', dateOfBirth: base.dateOfBirth })
        expect(byId(await find(w.org, accented))).toEqual(byId([w.original, w.sameNameBirth]))
      })

      test('never finds another organization’s constituents', async () => {
        const w = await matchWorld()

        expect(ids(await find(w.org, w.keys))).not.toContain(w.twin.id)
        expect(await find(w.foreignOrg, w.keys)).toEqual([w.twin])
        expect(await find(w.foreignOrg, w.keys, w.twin.id)).toEqual([])
      })

      test('finds nothing without keys, with unknown keys, or with keys given as undefined', async () => {
        const w = await matchWorld()

        expect(await find(w.org, {})).toEqual([])
        expect(await find(w.org, { phone: '+15559999999', email: 'nobody@example.org' })).toEqual([])
        expect(await find(w.org, { phone: undefined, email: undefined, nameAndBirth: undefined, lastNameAndStreet: undefined })).toEqual([])
      })

      test('answers at most limitPerKey constituents per key', async () => {
        const org = await anOrganizationId()
        const { member } = await aHome(org)
        const phone = '+15551110077'
        const email = 'shared@example.org'
        const byPhone = Array.from({ length: 5 }, () => member({ phone }))
        const byEmail = Array.from({ length: 5 }, () => member({ email }))
        await insertConstituents(...byPhone, ...byEmail)

        const phoneOnly = await find(org, { phone }, randomUUID(), 2)
        expect(phoneOnly).toHaveLength(2)
        expect(phoneOnly.every((c) => c.phone === phone)).toBe(true)
        const both = await find(org, { phone, email }, randomUUID(), 3)
        expect(both.filter((c) => c.phone === phone)).toHaveLength(3)
        expect(both.filter((c) => c.email === email)).toHaveLength(3)
        expect(new Set(ids(both)).size).toBe(6)
      })

      test('answers a constituent sharing several keys once', async () => {
        const w = await matchWorld()

        const found = await find(w.org, w.keys)
        expect(ids(found).filter((id) => id === w.original.id)).toHaveLength(1)
      })

      test('the keys follow updates and deletes', async () => {
        const w = await matchWorld()

        await write(async (r) => {
          await r.constituents.update({ ...w.samePhone, phone: '+15551110055', email: 'BO@example.org' })
          await r.constituents.delete(w.org, w.sameEmail.id)
        })

        expect(byId(await find(w.org, { phone: w.keys.phone }))).toEqual([w.original])
        expect(await find(w.org, { phone: '+15551110055' })).toEqual([{ ...w.samePhone, phone: '+15551110055', email: 'BO@example.org' }])
        expect(ids(await find(w.org, matchKeysOf({ email: 'bo@EXAMPLE.org' })))).toEqual([w.samePhone.id])
        expect(await find(w.org, { email: w.keys.email })).toEqual([w.original])
      })
    })

    describe('search', () => {
      const search = (org: string, query: string, page = every) => read().constituents.search(org, parseConstituentQuery(query), page)
      const found = async (org: string, query: string) => ids((await search(org, query)).items)

      /** Constituents with names and phones to search for, one without either, and a foreign look-alike. */
      async function searchWorld() {
        const org = await anOrganizationId()
        const foreignOrg = await anOrganizationId()
        const { member } = await aHome(org)
        const [tieLow, tieHigh] = ascendingIds(2) as [string, string]
        const chloe = member({ firstName: 'Chloé', lastName: 'Núñez-García', phone: '+15552223333', email: 'Chloe@Example.org', createdAt: minute(1) })
        const olga = member({ firstName: 'Olga', lastName: 'Smith', phone: '+15552224444', email: 'olga@example.org', createdAt: minute(2) })
        const bob = member({ firstName: 'Bob', lastName: 'Olsen', phone: '+442071234567', createdAt: minute(3) })
        const tieA = member({ id: tieLow, firstName: 'Émile', lastName: "O'Brien", createdAt: minute(4) })
        const tieB = member({ id: tieHigh, firstName: 'Zoë', lastName: 'Ölund', createdAt: minute(4) })
        const nameless = member({ email: 'anonymous@example.org', createdAt: minute(5) })
        // Oldest last, so an adapter answering in insertion order fails.
        await insertConstituents(nameless, tieB, tieA, bob, olga, chloe)
        const foreignHome = await aHome(foreignOrg)
        const foreign = foreignHome.member({ firstName: 'Olga', lastName: 'Smith', phone: olga.phone, email: olga.email, createdAt: minute(9) })
        await insertConstituents(foreign)
        return { org, foreignOrg, chloe, olga, bob, tieA, tieB, nameless, foreign }
      }

      test('an empty query lists every constituent of the organization, newest first, id as tie-break', async () => {
        const w = await searchWorld()

        const expected = [w.nameless, w.tieB, w.tieA, w.bob, w.olga, w.chloe]
        expect(await search(w.org, '')).toEqual({ items: expected, total: 6 })
        expect(await search(w.org, '   ')).toEqual({ items: expected, total: 6 })
      })

      test('pages with page and limit, total counting every match', async () => {
        const w = await searchWorld()

        expect(await search(w.org, '', { page: 1, limit: 4 })).toEqual({ items: [w.nameless, w.tieB, w.tieA, w.bob], total: 6 })
        expect(await search(w.org, '', { page: 2, limit: 4 })).toEqual({ items: [w.olga, w.chloe], total: 6 })
        expect(await search(w.org, '', { page: 3, limit: 4 })).toEqual({ items: [], total: 6 })
        expect(await search(w.org, 'o', { page: 2, limit: 2 })).toEqual({ items: [w.bob, w.olga], total: 4 })
        expect(await search(w.org, '555', { page: 2, limit: 1 })).toEqual({ items: [w.chloe], total: 2 })
      })

      test('searchAfter walks the matches in list order by keyset, batch after batch, in the organization only', async () => {
        const w = await searchWorld()
        const walk = async (query: string, size: number) => {
          const batches: string[][] = []
          for (let after: Constituent | undefined; ; ) {
            const batch = await read().constituents.searchAfter(w.org, parseConstituentQuery(query), after, size)
            if (batch.length > 0) batches.push(ids(batch))
            if (batch.length < size) return batches
            after = batch.at(-1)
          }
        }

        expect(await read().constituents.searchAfter(w.org, parseConstituentQuery(''), undefined, 100)).toEqual([w.nameless, w.tieB, w.tieA, w.bob, w.olga, w.chloe])
        expect(await walk('', 4)).toEqual([ids([w.nameless, w.tieB, w.tieA, w.bob]), ids([w.olga, w.chloe])])
        // The two of one time are told apart by id.
        expect(await walk('', 1)).toEqual(ids([w.nameless, w.tieB, w.tieA, w.bob, w.olga, w.chloe]).map((id) => [id]))
        expect(await walk('o', 2)).toEqual([ids([w.tieB, w.tieA]), ids([w.bob, w.olga])])
        expect(await walk('555', 1)).toEqual([[w.olga.id], [w.chloe.id]])
        expect(await walk('olga@example.org', 1)).toEqual([[w.olga.id]])
        expect(await walk('nobody', 2)).toEqual([])
      })

      test('matches words that begin the first or last name, case- and accent-insensitive', async () => {
        const w = await searchWorld()

        expect(await found(w.org, 'chlo')).toEqual([w.chloe.id])
        expect(await found(w.org, 'CHLOÉ')).toEqual([w.chloe.id])
        expect(await found(w.org, 'nunez')).toEqual([w.chloe.id])
        expect(await found(w.org, 'Núñ')).toEqual([w.chloe.id])
        expect(await found(w.org, 'garc')).toEqual([w.chloe.id])
        expect(await found(w.org, 'emile')).toEqual([w.tieA.id])
        expect(await found(w.org, 'obri')).toEqual([w.tieA.id])
        expect(await found(w.org, "O'Bri")).toEqual([w.tieA.id])
        expect(await found(w.org, 'zoe olund')).toEqual([w.tieB.id])
      })

      test('a single letter matches the names beginning with it and nothing else', async () => {
        const w = await searchWorld()

        expect(await found(w.org, 'o')).toEqual([w.tieB.id, w.tieA.id, w.bob.id, w.olga.id])
        expect(await found(w.org, 'O')).toEqual([w.tieB.id, w.tieA.id, w.bob.id, w.olga.id])
        expect(await found(w.org, 'z')).toEqual([w.tieB.id])
        expect(await found(w.org, 'x')).toEqual([])
      })

      test('every word must match; their order does not matter', async () => {
        const w = await searchWorld()

        expect(await found(w.org, 'olga smi')).toEqual([w.olga.id])
        expect(await found(w.org, 'SMITH  olg')).toEqual([w.olga.id])
        expect(await found(w.org, 'olga olsen')).toEqual([])
        expect(await found(w.org, 'ol')).toEqual([w.tieB.id, w.bob.id, w.olga.id])
      })

      test('matches the start of a name word only, never its middle', async () => {
        const w = await searchWorld()

        expect(await found(w.org, 'hloe')).toEqual([])
        expect(await found(w.org, 'mith')).toEqual([])
        expect(await found(w.org, 'arcia')).toEqual([])
      })

      test('matches a prefix of the phone’s digits, with or without the +1 country code', async () => {
        const w = await searchWorld()

        expect(await found(w.org, '555')).toEqual([w.olga.id, w.chloe.id])
        expect(await found(w.org, '555-222-3')).toEqual([w.chloe.id])
        expect(await found(w.org, '(555) 222 4444')).toEqual([w.olga.id])
        expect(await found(w.org, '+1 555 222')).toEqual([w.olga.id, w.chloe.id])
        expect(await found(w.org, '15552223333')).toEqual([w.chloe.id])
        expect(await found(w.org, '+44 20 7123')).toEqual([w.bob.id])
        expect(await found(w.org, '2071234567')).toEqual([])
        expect(await found(w.org, '2223333')).toEqual([])
        expect(await found(w.org, '+1 999')).toEqual([])
      })

      test('matches a whole email, case-insensitive', async () => {
        const w = await searchWorld()

        expect(await found(w.org, 'chloe@example.org')).toEqual([w.chloe.id])
        expect(await found(w.org, '  CHLOE@EXAMPLE.ORG ')).toEqual([w.chloe.id])
        expect(await found(w.org, 'anonymous@example.org')).toEqual([w.nameless.id])
        expect(await found(w.org, 'chloe@example')).toEqual([])
        expect(await found(w.org, 'hloe@example.org')).toEqual([])
      })

      test('never answers another organization’s constituents', async () => {
        const w = await searchWorld()

        for (const query of ['', 'olga', 'olga smith', 'o', '555', '+1 555 222 4444', 'olga@example.org']) {
          expect(await found(w.org, query)).not.toContain(w.foreign.id)
          expect(await search(w.foreignOrg, query)).toEqual({ items: [w.foreign], total: 1 })
        }
        expect(await search(randomUUID(), '')).toEqual({ items: [], total: 0 })
      })

      test('follows updates and deletes', async () => {
        const w = await searchWorld()

        await write(async (r) => {
          await r.constituents.update({ ...w.olga, firstName: 'Helga', phone: '+15557778888', email: 'helga@example.org', updatedAt: minute(30) })
          await r.constituents.delete(w.org, w.chloe.id)
          const { lastName: _lastName, ...withoutLastName } = w.bob
          await r.constituents.update(withoutLastName)
        })

        expect(await found(w.org, 'olga')).toEqual([])
        expect(await found(w.org, 'helg smi')).toEqual([w.olga.id])
        expect(await found(w.org, '555222')).toEqual([])
        expect(await found(w.org, '555777')).toEqual([w.olga.id])
        expect(await found(w.org, 'olga@example.org')).toEqual([])
        expect(await found(w.org, 'helga@example.org')).toEqual([w.olga.id])
        expect(await found(w.org, 'chlo')).toEqual([])
        expect(await found(w.org, 'chloe@example.org')).toEqual([])
        expect(await found(w.org, 'olsen')).toEqual([])
        expect(await found(w.org, 'bob')).toEqual([w.bob.id])
        expect((await search(w.org, '')).total).toBe(5)
        expect(await found(w.foreignOrg, 'olga')).toEqual([w.foreign.id])
      })
    })
  })

  describe('household matches', () => {
    /** Three constituents of one organization; matches name them by id only. */
    async function matchPeople() {
      const org = await anOrganizationId()
      const { member } = await aHome(org)
      const people = [member({ firstName: 'A' }), member({ firstName: 'B' }), member({ firstName: 'C' })]
      await insertConstituents(...people)
      const [a, b, c] = ids(people) as [string, string, string]
      return { org, a, b, c }
    }

    test('keeps every field through insert and find, absent ones absent', async () => {
      const { org, a, b, c } = await matchPeople()
      const open = aHouseholdMatch({ organizationId: org, constituentId: a, candidateConstituentId: b, reason: 'same phone, same email', createdAt: minute(1) })
      const resolved = aHouseholdMatch({
        organizationId: org,
        constituentId: a,
        candidateConstituentId: c,
        status: 'RESOLVED',
        createdAt: minute(2),
        resolvedAt: minute(3),
        resolvedBy: randomUUID(),
        action: 'MERGE_HOUSEHOLD',
      })
      await write(async (r) => {
        await r.householdMatches.insert(open)
        await r.householdMatches.insert(resolved)
      })

      const foundOpen = await read().householdMatches.findById(org, open.id)
      expect(foundOpen).toEqual(open)
      expect(presentKeys(foundOpen, ['resolvedAt', 'resolvedBy', 'action'])).toEqual([])
      expect(await read().householdMatches.findById(org, resolved.id)).toEqual(resolved)
      expect(await read().householdMatches.findById(org, randomUUID())).toBeUndefined()
    })

    test('updates a match, keeping its createdAt', async () => {
      const { org, a, b } = await matchPeople()
      const match = aHouseholdMatch({ organizationId: org, constituentId: a, candidateConstituentId: b, createdAt: minute(1) })
      await write((r) => r.householdMatches.insert(match))
      const resolvedBy = randomUUID()

      await write((r) =>
        r.householdMatches.update({ ...match, status: 'DISMISSED', resolvedAt: minute(7), resolvedBy, action: 'DISMISS', createdAt: minute(40) }),
      )

      expect(await read().householdMatches.findById(org, match.id)).toEqual({ ...match, status: 'DISMISSED', resolvedAt: minute(7), resolvedBy, action: 'DISMISS' })
    })

    test('never shows, updates or deletes another organization’s match', async () => {
      const { org, a, b } = await matchPeople()
      const other = await anOrganizationId()
      const match = aHouseholdMatch({ organizationId: org, constituentId: a, candidateConstituentId: b })
      await write((r) => r.householdMatches.insert(match))

      await write(async (r) => {
        await r.householdMatches.update({ ...match, organizationId: other, status: 'RESOLVED', action: 'MERGE_CONSTITUENT' })
        await r.householdMatches.delete(other, match.id)
      })

      expect(await read().householdMatches.findById(other, match.id)).toBeUndefined()
      expect(await read().householdMatches.findById(org, match.id)).toEqual(match)
      expect(await read().householdMatches.list(other, undefined, every)).toEqual({ items: [], total: 0 })
      expect(await read().householdMatches.listInvolving(other, a)).toEqual([])
    })

    test('lists newest first, id as tie-break, filtered by status, paged', async () => {
      const { org, a, b, c } = await matchPeople()
      const [low, high] = ascendingIds(2) as [string, string]
      const m1 = aHouseholdMatch({ organizationId: org, constituentId: a, candidateConstituentId: b, createdAt: minute(1) })
      const m2 = aHouseholdMatch({ organizationId: org, constituentId: a, candidateConstituentId: c, status: 'RESOLVED', action: 'MERGE_CONSTITUENT', createdAt: minute(2) })
      const m3 = aHouseholdMatch({ id: low, organizationId: org, constituentId: b, candidateConstituentId: c, createdAt: minute(3) })
      const m4 = aHouseholdMatch({ id: high, organizationId: org, constituentId: c, candidateConstituentId: a, status: 'DISMISSED', action: 'DISMISS', createdAt: minute(3) })
      const m5 = aHouseholdMatch({ organizationId: org, constituentId: c, candidateConstituentId: b, createdAt: minute(4) })
      const foreignOrg = await anOrganizationId()
      const foreign = aHouseholdMatch({ organizationId: foreignOrg, constituentId: a, candidateConstituentId: b, createdAt: minute(9) })
      await write(async (r) => {
        for (const m of [m1, m2, m3, m4, m5, foreign]) await r.householdMatches.insert(m)
      })

      expect(await read().householdMatches.list(org, undefined, every)).toEqual({ items: [m5, m4, m3, m2, m1], total: 5 })
      expect(await read().householdMatches.list(org, 'OPEN', every)).toEqual({ items: [m5, m3, m1], total: 3 })
      expect(await read().householdMatches.list(org, 'RESOLVED', every)).toEqual({ items: [m2], total: 1 })
      expect(await read().householdMatches.list(org, 'DISMISSED', every)).toEqual({ items: [m4], total: 1 })
      expect(await read().householdMatches.list(org, undefined, { page: 2, limit: 2 })).toEqual({ items: [m3, m2], total: 5 })
      expect(await read().householdMatches.list(org, 'OPEN', { page: 2, limit: 2 })).toEqual({ items: [m1], total: 3 })
      expect(await read().householdMatches.list(org, 'OPEN', { page: 3, limit: 2 })).toEqual({ items: [], total: 3 })
      expect(await read().householdMatches.list(foreignOrg, undefined, every)).toEqual({ items: [foreign], total: 1 })
    })

    test('lists every match naming a constituent on either side, in that organization only', async () => {
      const { org, a, b, c } = await matchPeople()
      const asConstituent = aHouseholdMatch({ organizationId: org, constituentId: a, candidateConstituentId: b, createdAt: minute(2) })
      const asCandidate = aHouseholdMatch({ organizationId: org, constituentId: c, candidateConstituentId: a, status: 'DISMISSED', createdAt: minute(1) })
      const unrelated = aHouseholdMatch({ organizationId: org, constituentId: b, candidateConstituentId: c })
      const foreign = aHouseholdMatch({ organizationId: await anOrganizationId(), constituentId: a, candidateConstituentId: b })
      await write(async (r) => {
        for (const m of [asConstituent, asCandidate, unrelated, foreign]) await r.householdMatches.insert(m)
      })

      expect(byId(await read().householdMatches.listInvolving(org, a))).toEqual(byId([asConstituent, asCandidate]))
      expect(byId(await read().householdMatches.listInvolving(org, c))).toEqual(byId([asCandidate, unrelated]))
      expect(await read().householdMatches.listInvolving(org, randomUUID())).toEqual([])
    })

    test('deletes a match', async () => {
      const { org, a, b, c } = await matchPeople()
      const gone = aHouseholdMatch({ organizationId: org, constituentId: a, candidateConstituentId: b })
      const stays = aHouseholdMatch({ organizationId: org, constituentId: a, candidateConstituentId: c })
      await write(async (r) => {
        await r.householdMatches.insert(gone)
        await r.householdMatches.insert(stays)
      })

      await write((r) => r.householdMatches.delete(org, gone.id))

      expect(await read().householdMatches.findById(org, gone.id)).toBeUndefined()
      expect(await read().householdMatches.listInvolving(org, a)).toEqual([stays])
      expect(await read().householdMatches.list(org, undefined, every)).toEqual({ items: [stays], total: 1 })
    })
  })
}
