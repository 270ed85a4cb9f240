import { scopeOf, type Actor } from '../../domain/auth/actor'
import { InvalidError } from '../../domain/errors'
import { needsReport, reportPeriodErrors, type NeedsReport, type ReportPeriod } from '../../domain/reports/needs-report'
import { periodInstants, textFiguresOf, type TextFigures } from '../../domain/reports/text-figures'
import { authorize } from '../auth/authorize'
import type { Clock } from '../ports/clock'
import type { Repositories } from '../ports/repositories'

// docs/api/needs.md "Reports"
/** The needs report of a period, with its texts: the whole organization's, or a partner role's own partner's. */
export class GetNeedsReport {
  constructor(
    private readonly repositories: Repositories,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, period: ReportPeriod): Promise<NeedsReport & { texts: TextFigures }> {
    authorize(actor, 'reports:read')
    InvalidError.throwIfAny(reportPeriodErrors(period), 'The report period is invalid')
    const scope = scopeOf(actor)
    if (scope.kind === 'none') return { ...needsReport(period, [], emptyFigures()), texts: textFiguresOf([]) }
    const partnerId = scope.kind === 'partner' ? scope.partnerId : undefined
    const { since, until } = periodInstants(period)
    const [partners, figures, texts] = await Promise.all([
      this.repositories.partners.listAll(actor.organizationId),
      this.repositories.needReports.figures(actor.organizationId, period, this.clock.now(), partnerId),
      this.repositories.interactions.countTexts(actor.organizationId, since, until, partnerId),
    ])
    const shown = partners
      .filter((p) => !partnerId || p.id === partnerId)
      .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
    return { ...needsReport(period, shown, figures), texts: textFiguresOf(texts) }
  }
}

function emptyFigures() {
  return { days: [], resolveHours: [], statuses: [], overdue: [] }
}
