import { expect, test } from 'bun:test'
import { figuresOfNeeds } from '../../../src/adapters/persistence/memory/memory-need-report-repository'
import { NEED_STATUSES, type Need } from '../../../src/domain/needs/need'
import type { NeedFigures, ReportPeriod } from '../../../src/domain/reports/needs-report'
import { aNeed, aPartner } from '../../support/builders'
import type { ContractContext } from './contract-context'

// The kept figures (days, months, weeks and totals kept by triggers) against a scan of the same needs, one by
// one, on seeded random needs and changes: whatever a store keeps, the report's answers are the scan's.

const HOUR = 3_600_000
const START = Date.UTC(2025, 9, 1)
const NOW = new Date(Date.UTC(2026, 9, 15, 13))
const PERIODS: ReportPeriod[] = [
  { from: '2026-10-01', to: '2026-10-31' }, // a month
  { from: '2025-11-01', to: '2026-10-31' }, // a year of whole months
  { from: '2025-10-17', to: '2026-10-16' }, // a year with days at both ends
  { from: '2026-02-20', to: '2026-03-10' }, // days only, across a month's end
]

/** A small seeded generator (mulberry32): the same needs on every store and every run. */
function seeded(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

function sortedFigures(figures: NeedFigures): NeedFigures {
  const order = <T>(rows: T[]) => rows.map((r) => JSON.stringify(r)).sort()
  return {
    days: order(figures.days) as never,
    resolveHours: order(figures.resolveHours) as never,
    statuses: order(figures.statuses) as never,
    overdue: order(figures.overdue) as never,
  }
}

export function describeNeedReportScanContract({ read, write, anOrganizationWithPartner, insertNeeds }: ContractContext): void {
  test('the kept report figures equal a scan of the needs, over random needs, moves, reopenings and resolutions', async () => {
    const next = seeded(45)
    const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)]!
    const { organization, partner } = await anOrganizationWithPartner()
    const others = [aPartner({ organizationId: organization.id }), aPartner({ organizationId: organization.id })]
    await write(async (r) => {
      for (const other of others) await r.partners.insert(other)
    })
    const partners = [partner, ...others].map((p) => p.id)
    const needs: Need[] = Array.from({ length: 300 }, () => {
      const createdAt = new Date(START + Math.floor(next() * 400 * 24) * HOUR + Math.floor(next() * HOUR))
      const status = pick(NEED_STATUSES)
      const dueDate = next() < 0.8 ? new Date(createdAt.getTime() + Math.floor(next() * 240) * HOUR) : undefined
      const resolvedAt = status === 'RESOLVED' ? new Date(createdAt.getTime() + Math.floor(next() * 400 * HOUR)) : undefined
      return aNeed({
        organizationId: organization.id,
        partnerId: pick(partners),
        status,
        createdAt,
        updatedAt: createdAt,
        ...(dueDate ? { dueDate } : {}),
        ...(resolvedAt ? { resolvedAt } : {}),
      })
    })
    await insertNeeds(...needs)
    // A third of them change: another partner, a reopening, a resolution at another time, another due date.
    await write(async (r) => {
      for (const [i, need] of needs.entries()) {
        if (next() > 0.33) continue
        const { resolvedAt: _, ...open } = need
        const changed: Need =
          need.status === 'RESOLVED' && next() < 0.5
            ? { ...open, status: 'IN_PROGRESS' }
            : next() < 0.5
              ? { ...need, partnerId: pick(partners), dueDate: new Date(need.createdAt.getTime() + Math.floor(next() * 300) * HOUR) }
              : { ...need, status: 'RESOLVED', resolvedAt: new Date(need.createdAt.getTime() + Math.floor(next() * 900) * HOUR) }
        await r.needs.update(changed)
        needs[i] = changed
      }
    })
    for (const period of PERIODS) {
      for (const partnerId of [undefined, others[0]!.id]) {
        const scanned = figuresOfNeeds(
          needs.filter((n) => !partnerId || n.partnerId === partnerId),
          period,
          NOW,
        )
        expect(sortedFigures(await read().needReports.figures(organization.id, period, NOW, partnerId))).toEqual(sortedFigures(scanned))
      }
    }
  })
}
