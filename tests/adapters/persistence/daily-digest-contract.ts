import { describe, expect, test } from 'bun:test'
import { aNeed } from '../../support/builders'
import type { ContractContext } from './contract-context'
import { ids, minute } from './contract-support'

/** The daily digest's reads and its per-member date (docs/api/organization.md "Notifications"). */
export function describeDailyDigestContract({ read, write, anOrganizationWithPartner, aMemberOf, insertNeeds }: ContractContext): void {
  describe('daily digests', () => {
    const take = (organizationId: string, memberId: string, date: string) =>
      write((r) => r.dailyDigests.take(organizationId, memberId, date))
    const due = async (organizationId: string, date: string) => (await read().dailyDigests.membersDue(organizationId, date)).sort()

    describe('take', () => {
      test('once per member and date; an earlier date is refused too, a later one is taken', async () => {
        const { organization } = await anOrganizationWithPartner()
        const member = await aMemberOf(organization.id)
        expect(await take(organization.id, member.id, '2026-11-23')).toBe(true)
        expect(await take(organization.id, member.id, '2026-11-23')).toBe(false)
        expect(await take(organization.id, member.id, '2026-11-22')).toBe(false)
        expect(await take(organization.id, member.id, '2026-11-24')).toBe(true)
      })

      test('taken by one of many transactions at once, whichever', async () => {
        const { organization } = await anOrganizationWithPartner()
        const member = await aMemberOf(organization.id)
        const takes = await Promise.all(Array.from({ length: 8 }, () => take(organization.id, member.id, '2026-11-23')))
        expect(takes.filter(Boolean)).toHaveLength(1)
      })

      test('a take rolled back leaves the day to take', async () => {
        const { organization } = await anOrganizationWithPartner()
        const member = await aMemberOf(organization.id)
        const crashed = write(async (r) => {
          expect(await r.dailyDigests.take(organization.id, member.id, '2026-11-23')).toBe(true)
          throw new Error('crash before commit')
        })
        await expect(crashed).rejects.toThrow('crash before commit')
        expect(await take(organization.id, member.id, '2026-11-23')).toBe(true)
      })

      test("another organization's take of the member is no take of it", async () => {
        const { organization } = await anOrganizationWithPartner()
        const other = await anOrganizationWithPartner()
        const member = await aMemberOf(organization.id)
        expect(await take(other.organization.id, member.id, '2026-11-23')).toBe(false)
        expect(await take(organization.id, member.id, '2026-11-23')).toBe(true)
      })
    })

    test('membersDue: the members not deactivated whose day is not taken, of the organization only', async () => {
      const { organization } = await anOrganizationWithPartner()
      const other = await anOrganizationWithPartner()
      const waiting = await aMemberOf(organization.id)
      const done = await aMemberOf(organization.id)
      const invited = await aMemberOf(organization.id, { isConfirmed: false })
      await aMemberOf(organization.id, { deactivatedAt: minute(0) })
      await aMemberOf(other.organization.id)
      await take(organization.id, done.id, '2026-11-23')

      expect(await due(organization.id, '2026-11-23')).toEqual([waiting.id, invited.id].sort())
      expect(await due(organization.id, '2026-11-24')).toEqual([waiting.id, done.id, invited.id].sort())
    })

    test('overdueAssignedTo: the open needs assigned to the member due before now, earliest due first, at most limit', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const member = await aMemberOf(organization.id)
      const someoneElse = await aMemberOf(organization.id)
      const assigned = { organizationId: organization.id, partnerId: partner.id, assignedTo: member.id }
      const latest = aNeed({ ...assigned, dueDate: minute(9) })
      const earliest = aNeed({ ...assigned, dueDate: minute(1), status: 'ESCALATED' })
      const middle = aNeed({ ...assigned, dueDate: minute(5), status: 'PENDING_CLIENT' })
      await insertNeeds(
        latest,
        earliest,
        middle,
        aNeed({ ...assigned, dueDate: minute(2), status: 'RESOLVED' }),
        aNeed({ ...assigned, dueDate: minute(10) }),
        aNeed({ ...assigned, dueDate: minute(30) }),
        aNeed({ ...assigned }),
        aNeed({ ...assigned, assignedTo: someoneElse.id, dueDate: minute(1) }),
      )
      const overdue = (limit: number) => read().dailyDigests.overdueAssignedTo(organization.id, member.id, minute(10), limit)

      expect(await overdue(10)).toEqual([earliest, middle, latest])
      expect(ids(await overdue(2))).toEqual([earliest.id, middle.id])
      const other = await anOrganizationWithPartner()
      expect(await read().dailyDigests.overdueAssignedTo(other.organization.id, member.id, minute(10), 10)).toEqual([])
    })

    test('unassignedOpen: the open needs assigned to nobody, oldest first, of one partner or all, at most limit', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const second = { ...partner, id: crypto.randomUUID(), isDefault: false }
      await write((r) => r.partners.insert(second))
      const member = await aMemberOf(organization.id)
      const at = (partnerId: string, createdAt: Date, more: object = {}) =>
        aNeed({ organizationId: organization.id, partnerId, createdAt, ...more })
      const oldest = at(partner.id, minute(1), { status: 'IN_PROGRESS' })
      const atSecond = at(second.id, minute(2))
      const newest = at(partner.id, minute(3))
      await insertNeeds(
        newest,
        atSecond,
        oldest,
        at(partner.id, minute(0), { status: 'RESOLVED' }),
        at(partner.id, minute(0), { assignedTo: member.id }),
      )
      const unassigned = (partnerId: string | undefined, limit = 10) =>
        read().dailyDigests.unassignedOpen(organization.id, partnerId, limit)

      expect(await unassigned(undefined)).toEqual([oldest, atSecond, newest])
      expect(await unassigned(partner.id)).toEqual([oldest, newest])
      expect(ids(await unassigned(undefined, 2))).toEqual([oldest.id, atSecond.id])
      const other = await anOrganizationWithPartner()
      expect(await read().dailyDigests.unassignedOpen(other.organization.id, undefined, 10)).toEqual([])
    })

    test("an organization's digest hour and time zone are kept, and listed for the worker", async () => {
      const { organization } = await anOrganizationWithPartner({ digestHour: 6, timeZone: 'Europe/Madrid', confirmRequests: true })
      expect(await read().organizations.findById(organization.id)).toEqual(organization)
      const plain = await anOrganizationWithPartner()
      const schedules = await read().organizations.digestSchedules()
      expect(schedules).toContainEqual({ organizationId: organization.id, digestHour: 6, timeZone: 'Europe/Madrid' })
      expect(schedules).toContainEqual({ organizationId: plain.organization.id })
      await write((r) => r.organizations.update({ ...organization, digestHour: 0, confirmRequests: false }))
      expect(await read().organizations.findById(organization.id)).toEqual({ ...organization, digestHour: 0, confirmRequests: false })
    })
  })
}
