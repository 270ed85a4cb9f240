import type { UseCases } from '../application/use-cases'
import type { Logger } from '../application/ports/logger'
import type { RunningWorker } from './outbox-worker'
import { startPeriodicJob } from './periodic-job'

/**
 * How often the worker looks for organizations whose retention is due (docs/privacy.md "Retention"): each
 * one's run is claimed once a day across instances, so most looks find nothing to do.
 */
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000

/** Applies the retention that is due at start and then every `intervalMs`; a failure is logged and tried again next time. */
export function startRetention(
  retention: UseCases['operations']['applyRetention'],
  logger: Logger,
  intervalMs = RETENTION_INTERVAL_MS,
): RunningWorker {
  return startPeriodicJob(
    () =>
      retention
        .execute()
        // Ids and counts only: what was erased is in no log.
        .then((runs) => {
          for (const run of runs) logger.info('retention applied', { ...run })
        })
        .catch((error) => logger.error('retention failed; trying again later', { error })),
    intervalMs,
  )
}
