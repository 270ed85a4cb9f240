import { scopeOf, type Actor } from '../../domain/auth/actor'
import { InvalidError } from '../../domain/errors'
import { DEFAULT_TIME_ZONE } from '../../domain/organizations/digest-schedule'
import { reportPeriodErrors, type ReportPeriod } from '../../domain/reports/needs-report'
import { servedReport, zonedPeriodInstants, type ServedReport } from '../../domain/reports/served-report'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'
import { reportPartners } from './report-partners'

// docs/api/needs.md "People served"
/**
 * The people and households a period's resolved needs were for, without duplicates: the whole organization's, or
 * a partner role's own partner's. The period's days are the organization's (its `timeZone`, UTC until set).
 */
export class GetServedReport {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor, period: ReportPeriod): Promise<ServedReport> {
    authorize(actor, 'reports:read')
    InvalidError.throwIfAny(reportPeriodErrors(period), 'The report period is invalid')
    const organization = await this.repositories.organizations.findById(actor.organizationId)
    const timeZone = organization?.timeZone ?? DEFAULT_TIME_ZONE
    const zone = { timeZone, ...zonedPeriodInstants(period, timeZone) }
    const scope = scopeOf(actor)
    const none = { total: { people: 0, households: 0 }, byPartner: [] }
    if (scope.kind === 'none') return servedReport(period, zone, [], none)
    const partnerId = scope.kind === 'partner' ? scope.partnerId : undefined
    const [partners, figures] = await Promise.all([
      reportPartners(this.repositories, actor.organizationId, partnerId),
      this.repositories.needReports.served(actor.organizationId, zone.since, zone.until, partnerId),
    ])
    return servedReport(period, zone, partners, figures)
  }
}
