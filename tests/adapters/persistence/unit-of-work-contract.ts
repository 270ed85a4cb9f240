import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { FIRST_REFERENCE_NUMBER } from '../../../src/domain/needs/need'
import type { Organization } from '../../../src/domain/organizations/organization'
import { aNeed, aNewNeed, anOrganization, aPartner } from '../../support/builders'
import type { ContractContext } from './contract-context'
import { realTimer } from './contract-support'

/** A promise and the function that resolves it: lets a test hold a transaction open. */
function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { open, opened }
}

/** The unit of work: commits whole or not at all, in isolation (the numbering of needs in it: need-numbering-contract.ts). */
export function describeUnitOfWorkContract({ read, write, anOrganizationWithPartner, insertNeeds }: ContractContext): void {
  describe('unit of work', () => {
    test('answers what the work answers', async () => {
      expect(await write(async () => 'done')).toBe('done')
    })

    test('a write is seen inside its transaction, and outside only once committed', async () => {
      const organization = anOrganization()
      const inserted = gate()
      const release = gate()
      let seenInside: Organization | undefined
      const running = write(async (r) => {
        await r.organizations.insert(organization)
        seenInside = await r.organizations.findById(organization.id)
        inserted.open()
        await release.opened
      })

      await inserted.opened
      expect(seenInside).toEqual(organization)
      expect(await read().organizations.findById(organization.id)).toBeUndefined()
      expect(await read().organizations.findBySlug(organization.slug)).toBeUndefined()

      release.open()
      await running
      expect(await read().organizations.findById(organization.id)).toEqual(organization)
    })

    test('writes whose results nobody reads are read back by the statements after them in the unit', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const need = aNewNeed({ organizationId: organization.id, partnerId: partner.id })
      const seen = await write(async (r) => {
        await r.needs.insertMany([need])
        await r.needs.appendChanges([
          {
            id: randomUUID(),
            organizationId: organization.id,
            needId: need.id,
            field: 'status',
            to: need.status,
            changedAt: need.createdAt,
          },
        ])
        return Promise.all([
          r.needs.findById(organization.id, need.id),
          r.needs.listChanges(organization.id, need.id, { page: 1, limit: 10 }),
        ])
      })
      expect(seen[0]).toEqual({ ...need, referenceNumber: `REQ-${FIRST_REFERENCE_NUMBER}` })
      expect(seen[1].items.map((change) => change.to)).toEqual([need.status])
    })

    test('reads outside a transaction see committed values while it is open', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const need = aNeed({ organizationId: organization.id, partnerId: partner.id })
      await insertNeeds(need)
      const written = gate()
      const release = gate()
      const running = write(async (r) => {
        await r.partners.update({ ...partner, name: 'Renamed' })
        await r.needs.update({ ...need, status: 'RESOLVED' })
        await r.needs.insert(aNeed({ organizationId: organization.id, partnerId: partner.id }))
        written.open()
        await release.opened
      })

      await written.opened
      expect(await read().partners.findById(organization.id, partner.id)).toEqual(partner)
      expect(await read().needs.list(organization.id, {}, { page: 1, limit: 10 })).toEqual({ items: [need], total: 1 })

      release.open()
      await running
      expect((await read().partners.findById(organization.id, partner.id))?.name).toBe('Renamed')
      expect((await read().needs.list(organization.id, {}, { page: 1, limit: 10 })).total).toBe(2)
    })

    test('units running at once: each one’s failure takes back its own writes only, and each success is committed when answered', async () => {
      const organizations = Array.from({ length: 24 }, () => anOrganization())
      const seenWhenAnswered: Array<Organization | undefined> = []
      const outcomes = await Promise.allSettled(
        organizations.map((organization, i) =>
          write(async (r) => {
            await r.organizations.insert(organization)
            if (i % 3 === 0) await realTimer(1)
            if (i % 4 === 1) throw new Error(`unit ${i} fails`)
            return i
          }).then(async (answer) => {
            seenWhenAnswered[i] = await read().organizations.findById(organization.id)
            return answer
          }),
        ),
      )

      outcomes.forEach((outcome, i) => {
        if (i % 4 === 1) expect(outcome).toEqual({ status: 'rejected', reason: new Error(`unit ${i} fails`) })
        else expect(outcome).toEqual({ status: 'fulfilled', value: i })
      })
      for (const [i, organization] of organizations.entries()) {
        expect(await read().organizations.findById(organization.id)).toEqual(i % 4 === 1 ? undefined : organization)
        if (i % 4 !== 1) expect(seenWhenAnswered[i]).toEqual(organization)
      }
    })

    test('keeps nothing of work that throws after awaiting a real timer, and passes its error on unchanged', async () => {
      const organization = anOrganization()
      const partner = aPartner({ organizationId: organization.id, isDefault: true })
      const failure = new Error('provider down')

      const outcome = write(async (r) => {
        await r.organizations.insert(organization)
        await r.partners.insert(partner)
        await realTimer(5)
        throw failure
      })

      await expect(outcome).rejects.toBe(failure)
      expect(await read().organizations.findById(organization.id)).toBeUndefined()
      expect(await read().partners.findById(organization.id, partner.id)).toBeUndefined()
    })
  })
}
