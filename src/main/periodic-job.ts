import type { RunningWorker } from './outbox-worker'

/**
 * Runs `run` at start and then every `intervalMs`, one run at a time (a run still going when the next is due
 * lets that one pass). `run` reports its own failures: the next run is the retry.
 */
export function startPeriodicJob(run: () => Promise<void>, intervalMs: number): RunningWorker {
  let running: Promise<void> | undefined
  const tick = () => {
    running ??= run().finally(() => (running = undefined))
  }
  tick()
  const timer = setInterval(tick, intervalMs)
  return {
    async stop() {
      clearInterval(timer)
      await running
    },
  }
}
