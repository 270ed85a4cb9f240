import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { Repositories } from '../../../src/application/ports/repositories'
import { FIRST_REFERENCE_NUMBER, formatReferenceNumber } from '../../../src/domain/needs/need'
import type { Partner } from '../../../src/domain/partners/partner'
import { aNeed, aNewNeed } from '../../support/builders'
import type { ContractContext } from './contract-context'
import { realTimer } from './contract-support'

/** Inserts `count` new needs of the partner in one insertMany and answers their reference numbers, in order. */
async function numbered(r: Repositories, partner: Partner, count = 1): Promise<string[]> {
  const needs = Array.from({ length: count }, () => aNewNeed({ organizationId: partner.organizationId, partnerId: partner.id }))
  const { referenceNumbers } = await r.needs.insertMany(needs)
  return referenceNumbers
}

/** docs/api/needs.md "Reference numbers": taken by the store as a new need is inserted, in the inserting transaction. */
export function describeNeedNumberingContract({ read, write, anOrganizationWithPartner }: ContractContext): void {
  describe('need reference numbers', () => {
    test('from 1001, one sequence per organization, stored with the need', async () => {
      const { partner: a } = await anOrganizationWithPartner()
      const { partner: b } = await anOrganizationWithPartner()
      const need = aNewNeed({ organizationId: a.organizationId, partnerId: a.id })

      const taken = await write(async (r) => [
        ...(await numbered(r, a, 2)),
        ...(await numbered(r, b)),
        ...(await (await r.needs.insertMany([need])).referenceNumbers),
      ])
      const next = await write(async (r) => [...(await numbered(r, b)), ...(await numbered(r, a))])

      expect(FIRST_REFERENCE_NUMBER).toBe(1001)
      expect(taken).toEqual(['REQ-1001', 'REQ-1002', 'REQ-1001', 'REQ-1003'])
      expect(next).toEqual(['REQ-1002', 'REQ-1004'])
      expect(await read().needs.findById(a.organizationId, need.id)).toEqual({ ...need, referenceNumber: 'REQ-1003' })
      expect((await read().needs.findByReferenceNumber(a.organizationId, 'REQ-1003'))?.id).toBe(need.id)
    })

    test('a batch is numbered in its order, after and before single ones, across its statements', async () => {
      const { partner } = await anOrganizationWithPartner()
      // Past 500 rows a batch is inserted in more than one statement (sql-repository.ts).
      const needs = Array.from({ length: 501 }, (_, i) =>
        aNewNeed({ organizationId: partner.organizationId, partnerId: partner.id, customFields: { i } }),
      )
      const [single] = await write((r) => numbered(r, partner))
      const batch = await write(async (r) => (await r.needs.insertMany(needs)).referenceNumbers)
      const [next] = await write((r) => numbered(r, partner))

      expect([single, ...batch, next]).toEqual(Array.from({ length: 503 }, (_, i) => `REQ-${FIRST_REFERENCE_NUMBER + i}`))
      for (const i of [0, 1, 499, 500]) {
        expect(await read().needs.findById(partner.organizationId, needs[i]!.id)).toEqual({ ...needs[i]!, referenceNumber: batch[i]! })
      }
      expect(await write(async (r) => (await r.needs.insertMany([])).referenceNumbers)).toEqual([])
    })

    test("the organization's short code is the prefix, as formatReferenceNumber writes it", async () => {
      const shortCode = Array.from({ length: 6 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join('')
      const { partner: coded } = await anOrganizationWithPartner({ shortCode })
      const { partner: plain } = await anOrganizationWithPartner()

      expect(await write((r) => numbered(r, coded, 2))).toEqual([
        formatReferenceNumber(shortCode, FIRST_REFERENCE_NUMBER),
        formatReferenceNumber(shortCode, FIRST_REFERENCE_NUMBER + 1),
      ])
      expect(await write((r) => numbered(r, plain))).toEqual([formatReferenceNumber(undefined, FIRST_REFERENCE_NUMBER)])
    })

    test('a need stored with a number of its own (a seed) keeps it and takes none of the sequence', async () => {
      const { partner } = await anOrganizationWithPartner()
      const seeded = aNeed({ organizationId: partner.organizationId, partnerId: partner.id, referenceNumber: 'REQ-1' })
      await write((r) => r.needs.insert(seeded))

      expect(await read().needs.findById(partner.organizationId, seeded.id)).toEqual(seeded)
      expect(await write((r) => numbered(r, partner))).toEqual([`REQ-${FIRST_REFERENCE_NUMBER}`])
    })

    test('a need of no organization is refused', async () => {
      const { partner } = await anOrganizationWithPartner()
      const stray = { ...partner, organizationId: randomUUID() }
      await expect(write((r) => numbered(r, stray))).rejects.toThrow()
    })

    test('a create rolled back gives its number back: the next create gets it', async () => {
      const { partner } = await anOrganizationWithPartner()
      const failure = new Error('late failure')
      const outcome = write(async (r) => {
        await numbered(r, partner)
        await r.partners.update({ ...partner, name: 'Never saved' })
        await realTimer(5)
        throw failure
      })
      await expect(outcome).rejects.toBe(failure)

      expect(await read().partners.findById(partner.organizationId, partner.id)).toEqual(partner)
      expect(await write((r) => numbered(r, partner))).toEqual([`REQ-${FIRST_REFERENCE_NUMBER}`])
    })

    test('concurrent creates never share a number, nor leave a gap', async () => {
      const { partner } = await anOrganizationWithPartner()
      const createFifty = () =>
        write(async (r) => {
          const taken: string[] = []
          for (let i = 0; i < 50; i++) {
            taken.push(...(await numbered(r, partner)))
            await new Promise((resolve) => setImmediate(resolve))
          }
          return taken
        })
      const createOne = () => write((r) => numbered(r, partner))

      const all = (await Promise.all([createFifty(), createFifty(), ...Array.from({ length: 20 }, createOne)])).flat()

      expect(new Set(all).size).toBe(120)
      const sorted = all.map((number) => Number(number.slice('REQ-'.length))).sort((a, b) => a - b)
      expect(sorted).toEqual(Array.from({ length: 120 }, (_, i) => FIRST_REFERENCE_NUMBER + i))
    })
  })
}
