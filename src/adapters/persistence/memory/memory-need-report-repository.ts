import type { NeedReportRepository } from '../../../application/ports/repositories/need-report-repository'
import { hoursToResolve, isOverdue, type Need } from '../../../domain/needs/need'
import { dayOf, type NeedFigures, type ReportPeriod } from '../../../domain/reports/needs-report'
import type { ServedCount, ServedFigures } from '../../../domain/reports/served-report'
import { MemoryRepository } from './memory-repository'

/** The report's figures counted from the needs themselves: what the SQL stores keep counted must equal this. */
export class MemoryNeedReportRepository extends MemoryRepository implements NeedReportRepository {
  async figures(organizationId: string, period: ReportPeriod, now: Date, partnerId?: string): Promise<NeedFigures> {
    const needs = [...this.t.needs.values()].filter((n) => n.organizationId === organizationId && (!partnerId || n.partnerId === partnerId))
    return figuresOfNeeds(needs, period, now)
  }

  async served(organizationId: string, since: Date, until: Date, partnerId?: string): Promise<ServedFigures> {
    const resolved = [...this.t.needs.values()].filter(
      (n) =>
        n.organizationId === organizationId &&
        (!partnerId || n.partnerId === partnerId) &&
        n.resolvedAt !== undefined &&
        n.resolvedAt >= since &&
        n.resolvedAt < until,
    )
    const partners = [...new Set(resolved.map((n) => n.partnerId))]
    return {
      total: distinct(resolved),
      byPartner: partners.map((id) => ({ partnerId: id, ...distinct(resolved.filter((n) => n.partnerId === id)) })),
    }
  }
}

/** The report's figures of these needs, counted one by one: what every store's figures must equal. */
export function figuresOfNeeds(needs: readonly Need[], period: ReportPeriod, now: Date): NeedFigures {
  const inPeriod = (at: Date | undefined) => at !== undefined && dayOf(at) >= period.from && dayOf(at) <= period.to
  const days = new Map<string, NeedFigures['days'][number]>()
  const dayRow = (n: Need, at: Date) => {
    const key = `${n.partnerId} ${dayOf(at)}`
    const row = days.get(key) ?? { partnerId: n.partnerId, day: dayOf(at), opened: 0, resolved: 0 }
    days.set(key, row)
    return row
  }
  const resolveHours = new Tally<{ partnerId: string; hours: number }>()
  for (const n of needs) {
    if (inPeriod(n.createdAt)) dayRow(n, n.createdAt).opened++
    if (n.resolvedAt && inPeriod(n.resolvedAt)) {
      dayRow(n, n.resolvedAt).resolved++
      resolveHours.add({ partnerId: n.partnerId, hours: hoursToResolve(n, n.resolvedAt) })
    }
  }
  const statuses = new Tally<{ partnerId: string; status: Need['status'] }>()
  const overdue = new Tally<{ partnerId: string }>()
  for (const n of needs) {
    statuses.add({ partnerId: n.partnerId, status: n.status })
    if (isOverdue(n, now)) overdue.add({ partnerId: n.partnerId })
  }
  return { days: [...days.values()], resolveHours: resolveHours.rows(), statuses: statuses.rows(), overdue: overdue.rows() }
}

/** How many times each key was added, as rows of the key and `needs`. */
class Tally<K extends Record<string, string | number>> {
  private readonly counts = new Map<string, { key: K; needs: number }>()
  add(key: K) {
    const id = JSON.stringify(key)
    const entry = this.counts.get(id) ?? { key, needs: 0 }
    entry.needs++
    this.counts.set(id, entry)
  }
  rows(): Array<K & { needs: number }> {
    return [...this.counts.values()].map(({ key, needs }) => ({ ...key, needs }))
  }
}

function distinct(needs: Need[]): ServedCount {
  const count = (key: 'constituentId' | 'householdId') => new Set(needs.flatMap((n) => (n[key] ? [n[key]] : []))).size
  return { people: count('constituentId'), households: count('householdId') }
}
