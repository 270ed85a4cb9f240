import type { UseCases } from '../application/use-cases'
import type { Logger } from '../application/ports/logger'
import type { RunningWorker } from './outbox-worker'

/**
 * How often the worker runs its periodic jobs: the audit purge (docs/audit.md) and the organizations'
 * retention (docs/privacy.md), which claims each organization for a day, so most hours it finds nothing to do.
 */
export const PERIODIC_JOB_INTERVAL_MS = 60 * 60 * 1000

/** Runs `job` at start and then every interval, never twice at once; a failure is logged and tried again next time. */
function startPeriodic(name: string, job: () => Promise<void>, logger: Logger): RunningWorker {
  let running: Promise<void> | undefined
  const run = () => {
    running ??= job()
      .catch((error) => logger.error(`${name} failed; trying again later`, { error }))
      .finally(() => (running = undefined))
  }
  run()
  const timer = setInterval(run, PERIODIC_JOB_INTERVAL_MS)
  return {
    async stop() {
      clearInterval(timer)
      await running
    },
  }
}

export function startAuditPurge(purge: UseCases['operations']['purgeAuditEvents'], logger: Logger) {
  return startPeriodic(
    'audit purge',
    async () => {
      const purged = await purge.execute()
      if (purged > 0) logger.info('audit events past retention deleted', { purged })
    },
    logger,
  )
}

export function startRetention(retention: UseCases['operations']['applyRetention'], logger: Logger) {
  return startPeriodic(
    'retention',
    async () => {
      // Ids and counts only: what was erased is in no log.
      for (const run of await retention.execute()) logger.info('retention applied', { ...run })
    },
    logger,
  )
}
