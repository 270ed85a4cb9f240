import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import { MAX_REPORT_DAYS, REPORT_DAY } from '../../domain/reports/needs-report'
import { NEED_STATUSES } from '../../domain/needs/need'
import { Int32, List, Named, Text, Uuid } from './common.schemas'
import { NAME } from '../../domain/shared/fields'

const Day = (description: string) => t.String({ ...REPORT_DAY, description })
const Count = (description: string) => Int32({ minimum: 0, maximum: 2_147_483_647 }, { description })
/** A week per 7 days of the longest period, and the partial weeks at each end. */
const MAX_REPORT_WEEKS = Math.ceil(MAX_REPORT_DAYS / 7) + 1

export const NeedsReportQuery = t.Object(
  {
    from: Day('The first day of the period, YYYY-MM-DD (UTC), included'),
    to: Day(`The last day of the period, YYYY-MM-DD (UTC), included; at most ${MAX_REPORT_DAYS} days in all`),
  },
  { additionalProperties: false },
)

const PeriodCounts = {
  opened: Count('Needs created during the period'),
  resolved: Count('Needs resolved during the period and still resolved'),
}
const NowCounts = {
  open: Count('Needs not RESOLVED now, whenever they were opened'),
  overdue: Count('Needs open and past their dueDate now'),
}

export const NeedsReportSchema = Named(
  'NeedsReport',
  t.Object(
    {
      from: Day('The first day of the period'),
      to: Day('The last day of the period'),
      ...PeriodCounts,
      ...NowCounts,
      byStatus: t.Object(Object.fromEntries(NEED_STATUSES.map((s) => [s, Count(`Needs in ${s} now`)])), {
        description: 'Needs in each status now',
      }),
      byPartner: List(
        t.Object({
          partnerId: Uuid,
          partnerName: Text(NAME),
          ...PeriodCounts,
          ...NowCounts,
          medianHoursToResolve: t.Union([Type.Number({ minimum: 0, maximum: 1e9 }), t.Null()], {
            description:
              "Median whole hours from creation to resolution of the period's resolved needs (the mean of the two middle ones for an even count); null when none",
          }),
        }),
        { maxItems: 10_000 },
        { description: 'Every partner the caller sees, by name' },
      ),
      texts: t.Object(
        {
          received: Count('Texts received during the period'),
          sent: Count('Texts sent during the period that the provider took: sent or delivered now'),
          delivered: Count('Texts sent during the period that the provider reports delivered'),
          failed: Count('Texts sent during the period that failed'),
        },
        { description: "The period's texts; a partner role's, those on its partner's needs" },
      ),
      byWeek: List(
        t.Object({ weekStart: Day('The Monday of the week'), ...PeriodCounts }),
        { maxItems: MAX_REPORT_WEEKS },
        { description: "Each week (Monday to Sunday) the period touches, counting the period's days only" },
      ),
    },
    { description: 'The needs of a period and as of now, in all and per partner and week' },
  ),
)
