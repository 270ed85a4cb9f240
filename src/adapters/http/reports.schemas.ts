import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import { MAX_REPORT_DAYS, REPORT_DAY } from '../../domain/reports/needs-report'
import { NEED_STATUSES } from '../../domain/needs/need'
import { DateTime, Int32, List, Named, Text, Uuid } from './common.schemas'
import { TIME_ZONE } from '../../domain/organizations/digest-schedule'
import { NAME } from '../../domain/shared/fields'

const Day = (description: string) => t.String({ ...REPORT_DAY, description })
const Count = (description: string) => Int32({ minimum: 0, maximum: 2_147_483_647 }, { description })
/** A week per 7 days of the longest period, and the partial weeks at each end. */
const MAX_REPORT_WEEKS = Math.ceil(MAX_REPORT_DAYS / 7) + 1

/** A report's period: two days, both included, of `days` (whose days they are). */
const PeriodQuery = (days: string) =>
  t.Object(
    {
      from: Day(`The first day of the period, YYYY-MM-DD (${days}), included`),
      to: Day(`The last day of the period, YYYY-MM-DD (${days}), included; at most ${MAX_REPORT_DAYS} days in all`),
    },
    { additionalProperties: false },
  )

export const NeedsReportQuery = PeriodQuery('UTC')

/** The instants of the period's days, for a link to the needs behind a figure (the needs list's createdFrom, createdTo, resolvedFrom, resolvedTo). */
const PeriodInstants = {
  since: t.String({ ...DateTime, description: "The first instant of the period's first day" }),
  until: t.String({ ...DateTime, description: "The first instant after the period's last day" }),
}

/** A report with its period's instants as the answer writes times. */
export function withInstants<R extends { since: Date; until: Date }>(report: R) {
  return { ...report, since: report.since.toISOString(), until: report.until.toISOString() }
}

/** A report's period as answered: its days and their instants. */
const Period = {
  from: Day('The first day of the period'),
  to: Day('The last day of the period'),
  ...PeriodInstants,
}

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
      ...Period,
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

export const ServedReportQuery = PeriodQuery("the organization's timeZone")

const ServedCounts = {
  people: Count('Different people on file (constituentId) of the needs resolved in the period'),
  households: Count('Different households (householdId) of the needs resolved in the period'),
}

export const ServedReportSchema = Named(
  'ServedReport',
  t.Object(
    {
      ...Period,
      timeZone: t.String({ ...TIME_ZONE, description: "The organization's time zone, whose days these are" }),
      ...ServedCounts,
      byPartner: List(
        t.Object({ partnerId: Uuid, partnerName: Text(NAME), ...ServedCounts }),
        { maxItems: 10_000 },
        { description: 'Every partner the caller sees, by name; a person served by two partners counts under each, and once in all' },
      ),
    },
    { description: 'The people and households served in a period: those with a need resolved in it, each counted once' },
  ),
)
