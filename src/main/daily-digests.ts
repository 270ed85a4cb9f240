import type { UseCases } from '../application/use-cases'
import type { Logger } from '../application/ports/logger'
import type { RunningWorker } from './outbox-worker'
import { startPeriodicJob } from './periodic-job'

/** How often the worker looks for members whose daily digest is due: within a minute of the hour. */
export const DAILY_DIGEST_INTERVAL_MS = 60 * 1000

/**
 * Queues the digests that are due at start and then every `intervalMs` (docs/api.md "Notifications"); every
 * instance may run it, each member's day is taken once. A failure is logged and tried again next time.
 */
export function startDailyDigests(
  digests: UseCases['operations']['sendDailyDigests'],
  logger: Logger,
  intervalMs = DAILY_DIGEST_INTERVAL_MS,
): RunningWorker {
  return startPeriodicJob(
    () =>
      digests
        .execute()
        .then((queued) => {
          if (queued > 0) logger.info('daily digests queued', { queued })
        })
        .catch((error) => logger.error('daily digests failed; trying again later', { error })),
    intervalMs,
  )
}
