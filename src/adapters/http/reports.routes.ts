import { Elysia } from 'elysia'
import type { UseCases } from '../../application/use-cases'
import type { AuthenticationPlugin } from './authentication'
import { problems } from './common.schemas'
import { NeedsReportQuery, NeedsReportSchema } from './reports.schemas'

// docs/api/needs.md "Reports"
export function reportsRoutes(useCases: UseCases['reports'], authentication: AuthenticationPlugin) {
  return new Elysia({ name: 'reports', prefix: '/api/reports', detail: { tags: ['Reports'] } })
    .use(authentication)
    .get('/needs', ({ actor, query }) => useCases.needs.execute(actor, query), {
      auth: true,
      query: NeedsReportQuery,
      response: { 200: NeedsReportSchema, ...problems(400, 401, 403) },
      detail: {
        operationId: 'getNeedsReport',
        summary: 'Needs opened and resolved in a period, open and overdue now, per status, partner and week',
        description:
          "org_admin and staff; partner_admin and partner_agent see their own partner's figures only. Read from counts kept per partner and day, not from the needs themselves.",
      },
    })
}
