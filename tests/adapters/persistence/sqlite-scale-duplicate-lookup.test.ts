import { describe, expect, test } from 'bun:test'
import { matchKeysOf, type MatchKeys } from '../../../src/domain/constituents/matching'
import { aHouseholdMatch } from '../../support/builders'
import { byId, minute } from './contract-support'
import type { Recorded } from './recording-sqlite'
import { big, constituents, middle, newcomer, people, planted, SIZES, small, twin } from './sqlite-scale-support'
import { memory, planOf, recording, sqlite, storeTheConstituents } from './sqlite-scale-support'

// Among 20,000 constituents (sqlite-scale-support.ts), a new person's possible duplicates, a person's household
// matches and a household's members are read by their indexes: as few rows in the big organization as in the small.

describe('SQLite with 20,000 constituents', () => {
  storeTheConstituents()

  const allPlans = (statements: Recorded[]) => statements.flatMap(planOf)
  /** Plan lines that read constituents other than by seq or by an organization's duplicate key: scans and walks of an organization. */
  const keyLookup =
    /^SEARCH constituents USING (INTEGER PRIMARY KEY \(rowid=\?\)|(COVERING )?INDEX constituents_by_\w+ \((organization_id=\? AND \w+|\w+=\? AND organization_id)=\?\))$/
  const scansOfConstituents = (plan: string[]) => plan.filter((line) => / constituents\b/.test(line) && !keyLookup.test(line))

  describe('duplicate lookup', () => {
    test('reads only the true matches, one indexed equality per key', async () => {
      const keys = matchKeysOf(newcomer)
      const { result, statements } = await recording.measure((r) => r.constituents.findByMatchKeys(big.id, keys, newcomer.id, 20))

      expect(byId(result)).toEqual(byId([people.original, people.samePhone, people.sameEmail, people.sameNameBirth, people.sameLastStreet]))
      // One statement per key, each answering Xiomara and the one person sharing that key: 8 rows out of 12,006.
      expect(statements.map((s) => s.rows)).toEqual([2, 2, 2, 2])
      expect(statements.map((s) => planOf(s).join(' | ')).sort()).toEqual([
        'SEARCH constituents USING INDEX constituents_by_email (email_key=? AND organization_id=?)',
        'SEARCH constituents USING INDEX constituents_by_last_street (organization_id=? AND last_street_key=?)',
        'SEARCH constituents USING INDEX constituents_by_name_birth (organization_id=? AND name_birth_key=?)',
        'SEARCH constituents USING INDEX constituents_by_phone (phone=? AND organization_id=?)',
      ])
      expect(allPlans(statements).filter((line) => line.includes('SCAN'))).toEqual([])
    })

    test('reads as few rows in the big organization as in the small one', async () => {
      const keys = matchKeysOf(newcomer)
      const inBig = await recording.measure((r) => r.constituents.findByMatchKeys(big.id, keys, people.original.id, 20))
      const inSmall = await recording.measure((r) => r.constituents.findByMatchKeys(small.id, keys, newcomer.id, 20))

      expect(inSmall.result).toEqual([twin])
      expect(inSmall.statements.map((s) => s.rows)).toEqual([1, 1, 1, 1])
      expect(inBig.statements.map((s) => s.rows)).toEqual([1, 1, 1, 1])
      expect(inBig.result).toHaveLength(4)
    })

    test("a person's household matches are read by their index, however many the organization holds", async () => {
      const background = constituents.filter((c) => c.organizationId === big.id).slice(0, 2_001)
      const pairs = background
        .slice(1)
        .map((c, i) =>
          aHouseholdMatch({ organizationId: big.id, constituentId: background[i]!.id, candidateConstituentId: c.id, createdAt: minute(i) }),
        )
      const asConstituent = aHouseholdMatch({
        organizationId: big.id,
        constituentId: people.original.id,
        candidateConstituentId: people.samePhone.id,
        createdAt: minute(-2),
      })
      const asCandidate = aHouseholdMatch({
        organizationId: big.id,
        constituentId: people.sameEmail.id,
        candidateConstituentId: people.original.id,
        createdAt: minute(-3),
      })
      await sqlite.persistence.unitOfWork.run(async (r) => {
        for (const match of [...pairs, asConstituent, asCandidate]) await r.householdMatches.insert(match)
      })

      const { result, statements } = await recording.measure((r) => r.householdMatches.listInvolving(big.id, people.original.id))

      expect(result).toEqual([asCandidate, asConstituent])
      expect(statements.map((s) => s.rows)).toEqual([1, 1])
      expect(allPlans(statements)).toEqual([
        'SEARCH household_matches USING INDEX household_matches_by_constituent (organization_id=? AND constituent_id=?)',
        'SEARCH household_matches USING INDEX household_matches_by_candidate (organization_id=? AND candidate_constituent_id=?)',
      ])
    })

    test("a household's members are read by its index, oldest first", async () => {
      const { result, statements } = await recording.measure((r) => r.constituents.listByHousehold(big.id, planted.household.id))

      expect(result).toEqual(Object.values(people))
      expect(statements.map((s) => s.rows)).toEqual([Object.keys(people).length])
      expect(allPlans(statements)).toEqual([
        'SEARCH constituents USING INDEX constituents_by_household (organization_id=? AND household_id=?)',
      ])
    })

    test('a key without a match reads no row at all', async () => {
      const { result, statements } = await recording.measure((r) =>
        r.constituents.findByMatchKeys(middle.id, matchKeysOf({ phone: '+19999999999', email: 'nobody@example.org' }), newcomer.id, 20),
      )

      expect(result).toEqual([])
      expect(statements.map((s) => s.rows)).toEqual([0, 0])
      expect(scansOfConstituents(allPlans(statements))).toEqual([])
    })
  })

  describe('memory and SQLite answer alike', () => {
    test('on duplicate lookups', async () => {
      const sample = [constituents[17]!, constituents[SIZES[0] + 4_321]!, constituents[SIZES[0] + SIZES[1] + 99]!]
      const lookups: Array<[string, MatchKeys, string]> = [
        [big.id, matchKeysOf(newcomer), newcomer.id],
        [small.id, matchKeysOf(newcomer), newcomer.id],
        ...sample.map((c): [string, MatchKeys, string] => [c.organizationId, matchKeysOf(c), c.id]),
        ...sample.map((c): [string, MatchKeys, string] => [c.organizationId, matchKeysOf(c), newcomer.id]),
      ]
      for (const [organizationId, keys, excludeId] of lookups) {
        const fromSqlite = await sqlite.persistence.repositories.constituents.findByMatchKeys(organizationId, keys, excludeId, 20)
        const fromMemory = await memory.repositories.constituents.findByMatchKeys(organizationId, keys, excludeId, 20)
        expect(byId(fromSqlite)).toEqual(byId(fromMemory))
      }
    })
  })
})
