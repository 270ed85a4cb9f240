import { Elysia, t } from 'elysia'
import type { Logger } from '../../application/ports/logger'
import type { UseCases } from '../../application/use-cases'
import type { ServedCount, ServedReport } from '../../domain/reports/served-report'
import type { AuthenticationPlugin } from './authentication'
import { problems } from './common.schemas'
import { csvAttachment, csvResponses, ExportFormatQuery, type CsvColumn } from './exports'
import { NeedsReportQuery, NeedsReportSchema, ServedReportQuery, ServedReportSchema, withInstants } from './reports.schemas'

/** A row of the served report's file: the period's, then all partners' (no partner named) or one partner's counts. */
type ServedRow = ServedCount & Pick<ServedReport, 'from' | 'to' | 'timeZone'> & { partnerId?: string; partnerName?: string }

const SERVED_COLUMNS: Array<CsvColumn<ServedRow>> = (
  ['from', 'to', 'timeZone', 'partnerId', 'partnerName', 'people', 'households'] as const
).map((key) => ({ header: key, cell: (row) => row[key]?.toString() }))

/** The served report as its file's rows: all partners first, then each. */
async function* servedRows({ from, to, timeZone, people, households, byPartner }: ServedReport): AsyncIterable<ServedRow[]> {
  const period = { from, to, timeZone }
  yield [{ ...period, people, households }, ...byPartner.map((p) => ({ ...period, ...p }))]
}

// docs/api/needs.md "Reports" and "People served"
export function reportsRoutes(useCases: UseCases['reports'], authentication: AuthenticationPlugin, logger: Logger) {
  return new Elysia({ name: 'reports', prefix: '/api/reports', detail: { tags: ['Reports'] } })
    .use(authentication)
    .get('/needs', async ({ actor, query }) => withInstants(await useCases.needs.execute(actor, query)), {
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
    .get('/served', async ({ actor, query }) => withInstants(await useCases.served.execute(actor, query)), {
      auth: true,
      query: ServedReportQuery,
      response: { 200: ServedReportSchema, ...problems(400, 401, 403) },
      detail: {
        operationId: 'getServedReport',
        summary: 'The people and households with a need resolved in a period, each counted once, in all and per partner',
        description:
          "Who may read the needs report; partner roles count their own partner's needs only. The period's days are the organization's (its timeZone).",
      },
    })
    .get(
      '/served/export',
      async ({ actor, query: { format: _csv, ...period } }) => {
        const report = await useCases.served.execute(actor, period)
        return csvAttachment(`served-${report.from}-to-${report.to}.csv`, SERVED_COLUMNS, servedRows(report), logger)
      },
      {
        auth: true,
        query: t.Object({ ...ServedReportQuery.properties, ...ExportFormatQuery }, { additionalProperties: false }),
        response: csvResponses(
          'The people and households served: a first row for all partners (partnerId and partnerName empty), then one per partner',
        ),
        detail: {
          operationId: 'exportServedReport',
          summary: 'The people and households served in a period, as CSV',
          description:
            'The same figures and permission as getServedReport, as a file: columns from, to, timeZone, partnerId, partnerName, people, households.',
        },
      },
    )
}
