import type { Logger } from '../application/ports/logger'
import type { UseCases } from '../application/use-cases'
import type { RunningWorker } from './outbox-worker'

const MINUTE = 60 * 1000
const HOUR = 60 * MINUTE

interface PeriodicJob {
  /** In the log line of a failure: "<name> failed; trying again later". */
  name: string
  everyMs: number
  /** One run; it logs what it did (ids and counts only, never what was erased or mailed). */
  run: (operations: UseCases['operations'], logger: Logger) => Promise<void>
}

/**
 * The worker's jobs on a timer besides the outbox. Every instance runs them; what keeps a digest to once a
 * day per member, or a retention run to once a day per organization, is a claim in the database, not the
 * timer (docs/transactions.md "Transactions").
 */
const JOBS: PeriodicJob[] = [
  {
    // Audit events past their organization's retention (docs/audit.md).
    name: 'audit purge',
    everyMs: HOUR,
    run: async (operations, logger) => {
      const purged = await operations.purgeAuditEvents.execute()
      if (purged > 0) logger.info('audit events past retention deleted', { purged })
    },
  },
  {
    // Live events past the stream's replay window (docs/events.md "The live stream").
    name: 'live events purge',
    everyMs: MINUTE,
    run: async (operations) => void (await operations.purgeLiveEvents.execute()),
  },
  {
    // Within a minute of each organization's digest hour (docs/api/organization.md "Notifications").
    name: 'daily digests',
    everyMs: MINUTE,
    run: async (operations, logger) => {
      const queued = await operations.sendDailyDigests.execute()
      if (queued > 0) logger.info('daily digests queued', { queued })
    },
  },
  {
    // People and needs' text past their organization's retention (docs/privacy.md "Retention"), and
    // Idempotency-Keys past their day (docs/api/conventions.md "Retrying a create"), the development outbox's
    // messages past their week (docs/api/organization.md "Development outbox").
    name: 'retention',
    everyMs: HOUR,
    run: async (operations, logger) => {
      const { runs, idempotencyKeysRemoved, unsentMessagesRemoved, federationRecordsRemoved } = await operations.applyRetention.execute()
      for (const run of runs) logger.info('retention applied', { ...run })
      if (idempotencyKeysRemoved > 0) logger.info('idempotency keys past their day deleted', { removed: idempotencyKeysRemoved })
      if (unsentMessagesRemoved > 0) logger.info('development outbox messages past their week deleted', { removed: unsentMessagesRemoved })
      if (federationRecordsRemoved > 0) logger.info('federation message ids past their day deleted', { removed: federationRecordsRemoved })
    },
  },
  {
    // The text of needs on file before need search came (docs/api/needs.md "Search and sort"): all of it at
    // start, then an empty backlog read once an hour (a run that failed is the next one's to finish).
    name: 'need search backlog',
    everyMs: HOUR,
    run: async (operations, logger) => {
      const indexed = await operations.indexNeedSearchBacklog.execute()
      if (indexed > 0) logger.info('needs indexed for search', { indexed })
    },
  },
]

/**
 * Runs each job at start and then every `everyMs`, one run of a job at a time (a run still going when the
 * next is due lets that one pass). A failure is logged; the next run is the retry.
 */
export function startPeriodicJobs(operations: UseCases['operations'], logger: Logger): RunningWorker[] {
  return JOBS.map((job) => {
    let running: Promise<void> | undefined
    const tick = () => {
      running ??= job
        .run(operations, logger)
        .catch((error) => logger.error(`${job.name} failed; trying again later`, { error }))
        .finally(() => (running = undefined))
    }
    tick()
    const timer = setInterval(tick, job.everyMs)
    return {
      async stop() {
        clearInterval(timer)
        await running
      },
    }
  })
}
