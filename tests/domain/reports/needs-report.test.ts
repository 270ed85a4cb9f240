import { describe, expect, test } from 'bun:test'
import { needsReport, weekOf } from '../../../src/domain/reports/needs-report'

const P = { id: 'p', name: 'Pantry' }
const none = { days: [], resolveHours: [], statuses: [], overdue: [] }

describe('needsReport', () => {
  test("weeks run Monday to Sunday, each counting the period's days only, the first starting before the period", () => {
    const report = needsReport({ from: '2026-11-04', to: '2026-11-16' }, [P], {
      ...none,
      days: [
        { partnerId: 'p', day: '2026-11-04', opened: 1, resolved: 0 },
        { partnerId: 'p', day: '2026-11-08', opened: 2, resolved: 1 },
        { partnerId: 'p', day: '2026-11-09', opened: 4, resolved: 0 },
        { partnerId: 'p', day: '2026-11-16', opened: 0, resolved: 3 },
      ],
    })
    expect(report.byWeek).toEqual([
      { weekStart: '2026-11-02', opened: 3, resolved: 1 },
      { weekStart: '2026-11-09', opened: 4, resolved: 0 },
      { weekStart: '2026-11-16', opened: 0, resolved: 3 },
    ])
    expect(report).toMatchObject({ from: '2026-11-04', to: '2026-11-16', opened: 7, resolved: 4 })
  })

  test('the median of whole hours is the middle value, or the mean of the two middle ones, from the histogram', () => {
    const median = (resolveHours: Array<{ hours: number; needs: number }>) =>
      needsReport({ from: '2026-11-02', to: '2026-11-02' }, [P], {
        ...none,
        resolveHours: resolveHours.map((h) => ({ partnerId: 'p', ...h })),
      }).byPartner[0]!.medianHoursToResolve
    expect(median([])).toBeNull()
    expect(median([{ hours: 7, needs: 1 }])).toBe(7)
    expect(
      median([
        { hours: 30, needs: 1 },
        { hours: 2, needs: 2 },
      ]),
    ).toBe(2)
    expect(
      median([
        { hours: 30, needs: 2 },
        { hours: 2, needs: 2 },
      ]),
    ).toBe(16)
    expect(
      median([
        { hours: 1, needs: 3 },
        { hours: 5, needs: 1 },
        { hours: 9, needs: 3 },
      ]),
    ).toBe(5)
  })

  test('open counts every status but RESOLVED; every status is named in byStatus, zero or not', () => {
    const report = needsReport({ from: '2026-11-02', to: '2026-11-02' }, [P], {
      ...none,
      statuses: [
        { partnerId: 'p', status: 'NEW', needs: 2 },
        { partnerId: 'p', status: 'ESCALATED', needs: 1 },
        { partnerId: 'p', status: 'RESOLVED', needs: 5 },
      ],
      overdue: [{ partnerId: 'p', needs: 2 }],
    })
    expect(report).toMatchObject({ open: 3, overdue: 2 })
    expect(report.byStatus).toEqual({ NEW: 2, IN_PROGRESS: 0, PENDING_INTERNAL: 0, PENDING_CLIENT: 0, RESOLVED: 5, ESCALATED: 1 })
  })
})

describe('weekOf', () => {
  test('is the Monday (UTC) of the week, Monday to Sunday', () => {
    for (const at of ['2026-11-02T00:00:00.000Z', '2026-11-05T12:00:00.000Z', '2026-11-08T23:59:59.999Z']) {
      expect(weekOf(new Date(at))).toBe('2026-11-02')
    }
    expect(weekOf(new Date('2026-11-01T23:59:59.999Z'))).toBe('2026-10-26')
    expect(weekOf(new Date('2027-01-01T00:00:00.000Z'))).toBe('2026-12-28')
  })
})
