import type { NeedFigures, ReportPeriod } from '../../../domain/reports/needs-report'
import type { ServedFigures } from '../../../domain/reports/served-report'

/**
 * The figures of the needs report, read from what each store keeps per partner and day (opened, resolved,
 * resolve times in whole hours) and per partner and status, in the transaction that changes a need; overdue
 * needs are counted on the index of open needs' due dates. No read scans the needs of the period.
 */
export interface NeedReportRepository {
  /** The period's figures, and the counts by status and overdue as of `now`; `partnerId` narrows them to one partner. */
  figures(organizationId: string, period: ReportPeriod, now: Date, partnerId?: string): Promise<NeedFigures>
  /**
   * The different people (`constituentId`) and households (`householdId`) of the needs resolved at or after `since`
   * and before `until` (by the resolution that stands), in all and per partner; `partnerId` narrows them to one
   * partner. A distinct count over the period's needs, not kept counts: the same person on two days is one.
   */
  served(organizationId: string, since: Date, until: Date, partnerId?: string): Promise<ServedFigures>
}
