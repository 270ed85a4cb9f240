import type { UseCases } from '../application/use-cases'
import type { Logger } from '../application/ports/logger'
import type { RunningWorker } from './outbox-worker'
import { startPeriodicJob } from './periodic-job'

/** How often the worker deletes audit events past their organization's retention (docs/audit.md). */
export const AUDIT_PURGE_INTERVAL_MS = 60 * 60 * 1000

/** Runs the purge at start and then every `intervalMs`; a failure is logged and tried again next time. */
export function startAuditPurge(
  purge: UseCases['operations']['purgeAuditEvents'],
  logger: Logger,
  intervalMs = AUDIT_PURGE_INTERVAL_MS,
): RunningWorker {
  return startPeriodicJob(
    () =>
      purge
        .execute()
        .then((purged) => {
          if (purged > 0) logger.info('audit events past retention deleted', { purged })
        })
        .catch((error) => logger.error('audit purge failed; trying again later', { error })),
    intervalMs,
  )
}
