import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { matchKeysOf, type MatchKeys } from '../../../src/domain/constituents/matching'
import { aHouseholdMatch } from '../../support/builders'
import { constituentSteps } from './constituent-support'
import type { ContractContext } from './contract-context'
import { ALL, ascendingIds, byId, ids, minute, presentKeys } from './contract-support'

/** What duplicate detection reads and writes: constituents by their match keys, and household matches. */
export function describeConstituentDuplicatesContract(context: ContractContext): void {
  const { read, write } = context
  const { anOrganizationId, insertConstituents, aHome } = constituentSteps(context)

  describe('constituents', () => {
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
      const open = aHouseholdMatch({
        organizationId: org,
        constituentId: a,
        candidateConstituentId: b,
        reason: 'same phone, same email',
        createdAt: minute(1),
      })
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

    test("inserts a new person's matches at once, each as it was given, NULLs and values alike", async () => {
      const { org, a, b, c } = await matchPeople()
      const toB = aHouseholdMatch({
        organizationId: org,
        constituentId: a,
        candidateConstituentId: b,
        reason: 'same phone',
        createdAt: minute(1),
      })
      const toC = aHouseholdMatch({
        organizationId: org,
        constituentId: a,
        candidateConstituentId: c,
        status: 'DISMISSED',
        createdAt: minute(2),
        resolvedAt: minute(3),
        resolvedBy: randomUUID(),
        action: 'DISMISS',
      })
      await write((r) => r.householdMatches.insertMany([toB, toC]))
      await write((r) => r.householdMatches.insertMany([]))

      expect(await read().householdMatches.listInvolving(org, a)).toEqual([toB, toC])
      expect(presentKeys(await read().householdMatches.findById(org, toB.id), ['resolvedAt', 'resolvedBy', 'action'])).toEqual([])
    })

    test('updates a match, keeping its createdAt', async () => {
      const { org, a, b } = await matchPeople()
      const match = aHouseholdMatch({ organizationId: org, constituentId: a, candidateConstituentId: b, createdAt: minute(1) })
      await write((r) => r.householdMatches.insert(match))
      const resolvedBy = randomUUID()

      await write((r) =>
        r.householdMatches.update({
          ...match,
          status: 'DISMISSED',
          resolvedAt: minute(7),
          resolvedBy,
          action: 'DISMISS',
          createdAt: minute(40),
        }),
      )

      expect(await read().householdMatches.findById(org, match.id)).toEqual({
        ...match,
        status: 'DISMISSED',
        resolvedAt: minute(7),
        resolvedBy,
        action: 'DISMISS',
      })
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
      expect(await read().householdMatches.list(other, undefined, ALL)).toEqual({ items: [], total: 0 })
      expect(await read().householdMatches.listInvolving(other, a)).toEqual([])
    })

    test('lists newest first, id as tie-break, filtered by status, paged', async () => {
      const { org, a, b, c } = await matchPeople()
      const [low, high] = ascendingIds(2) as [string, string]
      const m1 = aHouseholdMatch({ organizationId: org, constituentId: a, candidateConstituentId: b, createdAt: minute(1) })
      const m2 = aHouseholdMatch({
        organizationId: org,
        constituentId: a,
        candidateConstituentId: c,
        status: 'RESOLVED',
        action: 'MERGE_CONSTITUENT',
        createdAt: minute(2),
      })
      const m3 = aHouseholdMatch({ id: low, organizationId: org, constituentId: b, candidateConstituentId: c, createdAt: minute(3) })
      const m4 = aHouseholdMatch({
        id: high,
        organizationId: org,
        constituentId: c,
        candidateConstituentId: a,
        status: 'DISMISSED',
        action: 'DISMISS',
        createdAt: minute(3),
      })
      const m5 = aHouseholdMatch({ organizationId: org, constituentId: c, candidateConstituentId: b, createdAt: minute(4) })
      const foreignOrg = await anOrganizationId()
      const foreign = aHouseholdMatch({ organizationId: foreignOrg, constituentId: a, candidateConstituentId: b, createdAt: minute(9) })
      await write(async (r) => {
        for (const m of [m1, m2, m3, m4, m5, foreign]) await r.householdMatches.insert(m)
      })

      expect(await read().householdMatches.list(org, undefined, ALL)).toEqual({ items: [m5, m4, m3, m2, m1], total: 5 })
      expect(await read().householdMatches.list(org, 'OPEN', ALL)).toEqual({ items: [m5, m3, m1], total: 3 })
      expect(await read().householdMatches.list(org, 'RESOLVED', ALL)).toEqual({ items: [m2], total: 1 })
      expect(await read().householdMatches.list(org, 'DISMISSED', ALL)).toEqual({ items: [m4], total: 1 })
      expect(await read().householdMatches.list(org, undefined, { page: 2, limit: 2 })).toEqual({ items: [m3, m2], total: 5 })
      expect(await read().householdMatches.list(org, 'OPEN', { page: 2, limit: 2 })).toEqual({ items: [m1], total: 3 })
      expect(await read().householdMatches.list(org, 'OPEN', { page: 3, limit: 2 })).toEqual({ items: [], total: 3 })
      expect(await read().householdMatches.list(foreignOrg, undefined, ALL)).toEqual({ items: [foreign], total: 1 })
    })

    test('lists every match naming a constituent on either side, in that organization only', async () => {
      const { org, a, b, c } = await matchPeople()
      const asConstituent = aHouseholdMatch({ organizationId: org, constituentId: a, candidateConstituentId: b, createdAt: minute(2) })
      const asCandidate = aHouseholdMatch({
        organizationId: org,
        constituentId: c,
        candidateConstituentId: a,
        status: 'DISMISSED',
        createdAt: minute(1),
      })
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
      expect(await read().householdMatches.list(org, undefined, ALL)).toEqual({ items: [stays], total: 1 })
    })
  })
}
