import { describe, expect, test } from 'bun:test'
import type { Repositories } from '../../../src/application/ports/repositories'
import type { Need } from '../../../src/domain/needs/need'
import type { NeedFigures, ReportPeriod } from '../../../src/domain/reports/needs-report'
import { aNeed, aPartner } from '../../support/builders'
import type { ContractContext } from './contract-context'
import { ids, minute } from './contract-support'

const at = (iso: string) => new Date(iso)
const WEEK: ReportPeriod = { from: '2026-11-02', to: '2026-11-08' }
const NOW = at('2026-11-10T00:00:00.000Z')

/** Figures in one order, whatever order a store reads them in. */
function sorted(figures: NeedFigures): NeedFigures {
  const by =
    <T>(key: (row: T) => string) =>
    (a: T, b: T) =>
      key(a).localeCompare(key(b))
  return {
    days: [...figures.days].sort(by((r) => `${r.partnerId} ${r.day}`)),
    resolveHours: [...figures.resolveHours].sort(by((r) => `${r.partnerId} ${String(r.hours).padStart(6, '0')}`)),
    statuses: [...figures.statuses].sort(by((r) => `${r.partnerId} ${r.status}`)),
    overdue: [...figures.overdue].sort(by((r) => r.partnerId)),
  }
}

/** Open needs by due date, and the figures of the needs report, kept as needs are written. */
export function describeNeedReportContract({ read, write, anOrganizationWithPartner, insertNeeds }: ContractContext): void {
  describe('needs by due date', () => {
    test('lists exactly the open needs due strictly before the bound, with the other filters, paged and in batches', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const other = aPartner({ organizationId: organization.id })
      await write((r) => r.partners.insert(other))
      const need = (n: number, overrides: Partial<Need>) =>
        aNeed({ organizationId: organization.id, partnerId: partner.id, createdAt: minute(n), updatedAt: minute(n), ...overrides })
      const early = need(1, { dueDate: minute(100) })
      const working = need(2, { status: 'IN_PROGRESS', dueDate: minute(110) })
      const resolved = need(3, { status: 'RESOLVED', dueDate: minute(90), resolvedAt: minute(50) })
      const atBound = need(4, { dueDate: minute(120) })
      const later = need(5, { dueDate: minute(500) })
      const undated = need(6, {})
      const elsewhere = need(7, { partnerId: other.id, status: 'ESCALATED', dueDate: minute(10) })
      await insertNeeds(early, working, resolved, atBound, later, undated, elsewhere)
      const { organization: otherOrganization, partner: theirs } = await anOrganizationWithPartner()
      await insertNeeds(aNeed({ organizationId: otherOrganization.id, partnerId: theirs.id, dueDate: minute(5) }))

      const list = (filter: Parameters<Repositories['needs']['list']>[1], page = { page: 1, limit: 25 }) =>
        read().needs.list(organization.id, { openDueBefore: minute(120), ...filter }, page)
      // Soonest due first.
      expect(await list({})).toEqual({ items: [elsewhere, early, working], total: 3 })
      expect(await list({ partnerId: partner.id })).toEqual({ items: [early, working], total: 2 })
      expect(await list({ statuses: ['NEW', 'RESOLVED'] })).toEqual({ items: [early], total: 1 })
      expect(await list({}, { page: 2, limit: 2 })).toEqual({ items: [working], total: 3 })
      expect(ids(await read().needs.listAfter(organization.id, { openDueBefore: minute(501) }, undefined, 10))).toEqual(
        ids([elsewhere, later, atBound, working, early]),
      )
      const [first] = await read().needs.listAfter(organization.id, { openDueBefore: minute(120) }, undefined, 1)
      expect(ids(await read().needs.listAfter(organization.id, { openDueBefore: minute(120) }, first, 10))).toEqual(ids([working, early]))
    })
  })

  test('counts open needs due before a time across whole days and within its own, through changes of status, partner and due date', async () => {
    const { organization, partner } = await anOrganizationWithPartner()
    const other = aPartner({ organizationId: organization.id })
    await write((r) => r.partners.insert(other))
    const due = (iso: string, overrides: Partial<Need> = {}) =>
      aNeed({ organizationId: organization.id, partnerId: partner.id, dueDate: at(iso), ...overrides })
    const needs = [
      due('2026-10-30T10:00:00.000Z'),
      due('2026-11-01T23:59:59.999Z', { status: 'ESCALATED' }),
      due('2026-11-03T08:00:00.000Z'),
      due('2026-11-03T11:59:59.999Z', { partnerId: other.id }),
      due('2026-11-03T12:00:00.000Z'),
      due('2026-11-02T09:00:00.000Z', { status: 'RESOLVED', resolvedAt: at('2026-11-01T00:00:00.000Z') }),
      due('2026-11-04T00:00:00.000Z'),
    ]
    await insertNeeds(...needs)
    const bound = at('2026-11-03T12:00:00.000Z')
    const total = async (filter: Parameters<Repositories['needs']['list']>[1] = {}) =>
      (await read().needs.list(organization.id, { openDueBefore: bound, ...filter }, { page: 1, limit: 1 })).total
    expect([await total(), await total({ partnerId: partner.id }), await total({ statuses: ['ESCALATED', 'RESOLVED'] })]).toEqual([4, 3, 1])

    const [first, second, third, , , resolved] = needs as [Need, Need, Need, Need, Need, Need, Need]
    await write(async (r) => {
      await r.needs.update({ ...first, status: 'RESOLVED', resolvedAt: bound }) // no longer due
      await r.needs.update({ ...second, partnerId: other.id }) // moved
      await r.needs.update({ ...third, dueDate: at('2026-11-05T00:00:00.000Z') }) // due later
      const { resolvedAt: _reopened, ...reopened } = resolved
      await r.needs.update({ ...reopened, status: 'IN_PROGRESS' }) // due again
    })
    expect([await total(), await total({ partnerId: partner.id }), await total({ partnerId: other.id })]).toEqual([3, 1, 2])
    expect(ids((await read().needs.list(organization.id, { openDueBefore: bound }, { page: 1, limit: 10 })).items)).toEqual(
      ids([second, resolved, needs[3]!]),
    )
  })

  describe('needs report figures', () => {
    /**
     * A week of needs, then changes: a move, a reopening and a second resolution. Expected from the rule:
     * opened on the creation day, resolved on the day of the resolution that stands, both under the need's
     * partner now; whole hours to resolve; statuses and overdue as of now.
     */
    async function aWeekOfNeeds() {
      const { organization, partner: p } = await anOrganizationWithPartner()
      const q = aPartner({ organizationId: organization.id, name: 'Q' })
      await write((r) => r.partners.insert(q))
      const need = (overrides: Partial<Need> & Pick<Need, 'createdAt'>) =>
        aNeed({ organizationId: organization.id, partnerId: p.id, updatedAt: overrides.createdAt, ...overrides })
      const resolvedThenReopened = need({
        createdAt: at('2026-11-02T10:00:00.000Z'),
        status: 'RESOLVED',
        resolvedAt: at('2026-11-02T15:30:00.000Z'),
      })
      const moved = need({ createdAt: at('2026-11-03T23:30:00.000Z'), dueDate: at('2026-11-04T00:00:00.000Z') })
      const openedBefore = need({
        partnerId: q.id,
        createdAt: at('2026-11-01T12:00:00.000Z'),
        status: 'RESOLVED',
        resolvedAt: at('2026-11-03T12:00:00.000Z'),
      })
      const lastMoment = need({
        partnerId: q.id,
        createdAt: at('2026-11-08T23:59:59.999Z'),
        status: 'IN_PROGRESS',
        dueDate: at('2027-01-01T00:00:00.000Z'),
      })
      const openedAfter = need({ createdAt: at('2026-11-09T00:00:00.000Z'), dueDate: NOW })
      const quick = need({ createdAt: at('2026-11-05T00:00:00.000Z'), status: 'RESOLVED', resolvedAt: at('2026-11-05T03:59:59.999Z') })
      await insertNeeds(resolvedThenReopened, moved, openedBefore, lastMoment, openedAfter, quick)
      await write(async (r) => {
        await r.needs.update({ ...moved, partnerId: q.id })
        const { resolvedAt: _gone, ...reopened } = resolvedThenReopened
        await r.needs.update({ ...reopened, status: 'IN_PROGRESS' })
      })
      await write((r) => r.needs.update({ ...resolvedThenReopened, status: 'RESOLVED', resolvedAt: at('2026-11-04T10:00:00.000Z') }))
      return { organization, p, q }
    }

    test('counts each need opened and resolved on its day under its partner now, with whole hours to resolve', async () => {
      const { organization, p, q } = await aWeekOfNeeds()
      expect(sorted(await read().needReports.figures(organization.id, WEEK, NOW))).toEqual(
        sorted({
          days: [
            { partnerId: p.id, day: '2026-11-02', opened: 1, resolved: 0 },
            { partnerId: p.id, day: '2026-11-04', opened: 0, resolved: 1 },
            { partnerId: p.id, day: '2026-11-05', opened: 1, resolved: 1 },
            { partnerId: q.id, day: '2026-11-03', opened: 1, resolved: 1 },
            { partnerId: q.id, day: '2026-11-08', opened: 1, resolved: 0 },
          ],
          resolveHours: [
            { partnerId: p.id, hours: 48, needs: 1 },
            { partnerId: p.id, hours: 3, needs: 1 },
            { partnerId: q.id, hours: 48, needs: 1 },
          ],
          statuses: [
            { partnerId: p.id, status: 'RESOLVED', needs: 2 },
            { partnerId: p.id, status: 'NEW', needs: 1 },
            { partnerId: q.id, status: 'RESOLVED', needs: 1 },
            { partnerId: q.id, status: 'NEW', needs: 1 },
            { partnerId: q.id, status: 'IN_PROGRESS', needs: 1 },
          ],
          overdue: [{ partnerId: q.id, needs: 1 }],
        }),
      )
    })

    test("narrows every figure to one partner, and a period's bounds are whole days, both included", async () => {
      const { organization, q } = await aWeekOfNeeds()
      expect(sorted(await read().needReports.figures(organization.id, { from: '2026-11-08', to: '2026-11-09' }, NOW, q.id))).toEqual(
        sorted({
          days: [{ partnerId: q.id, day: '2026-11-08', opened: 1, resolved: 0 }],
          resolveHours: [],
          statuses: [
            { partnerId: q.id, status: 'RESOLVED', needs: 1 },
            { partnerId: q.id, status: 'NEW', needs: 1 },
            { partnerId: q.id, status: 'IN_PROGRESS', needs: 1 },
          ],
          overdue: [{ partnerId: q.id, needs: 1 }],
        }),
      )
    })

    test('a rolled-back write leaves the figures as they were', async () => {
      const { organization, p } = await aWeekOfNeeds()
      const before = sorted(await read().needReports.figures(organization.id, WEEK, NOW))
      const undone = write(async (r) => {
        await r.needs.insert(aNeed({ organizationId: organization.id, partnerId: p.id, createdAt: at('2026-11-03T00:00:00.000Z') }))
        throw new Error('undo')
      })
      await expect(undone).rejects.toThrow('undo')
      expect(sorted(await read().needReports.figures(organization.id, WEEK, NOW))).toEqual(before)
    })

    test("never counts another organization's needs", async () => {
      await aWeekOfNeeds()
      const { organization } = await anOrganizationWithPartner()
      expect(await read().needReports.figures(organization.id, WEEK, NOW)).toEqual({
        days: [],
        resolveHours: [],
        statuses: [],
        overdue: [],
      })
    })
  })
}
