import { scopeOf, type Actor } from '../../domain/auth/actor'
import { InvalidError } from '../../domain/errors'
import { needsReport, reportPeriodErrors, type NeedsReport, type ReportPeriod } from '../../domain/reports/needs-report'
import { periodInstants, textFiguresOf, type TextFigures } from '../../domain/reports/text-figures'
import { authorize } from '../auth/authorize'
import type { Clock } from '../ports/clock'
import type { Repositories } from '../ports/repositories'
import { reportPartners } from './report-partners'

// docs/api/needs.md "Reports"
/** The needs report of a period, with its texts: the whole organization's, or a partner role's own partner's. */
export class GetNeedsReport {
  constructor(
    private readonly repositories: Repositories,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, period: ReportPeriod): Promise<NeedsReport & { since: Date; until: Date; texts: TextFigures }> {
    authorize(actor, 'reports:read')
    InvalidError.throwIfAny(reportPeriodErrors(period), 'The report period is invalid')
    const scope = scopeOf(actor)
    const { since, until } = periodInstants(period)
    if (scope.kind === 'none') return { ...needsReport(period, [], emptyFigures()), since, until, texts: textFiguresOf([]) }
    const partnerId = scope.kind === 'partner' ? scope.partnerId : undefined
    const [partners, figures, texts] = await Promise.all([
      reportPartners(this.repositories, actor.organizationId, partnerId),
      this.repositories.needReports.figures(actor.organizationId, period, this.clock.now(), partnerId),
      this.repositories.interactions.countTexts(actor.organizationId, since, until, partnerId),
    ])
    return { ...needsReport(period, partners, figures), since, until, texts: textFiguresOf(texts) }
  }
}

function emptyFigures() {
  return { days: [], resolveHours: [], statuses: [], overdue: [] }
}
