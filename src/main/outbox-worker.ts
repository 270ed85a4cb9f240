import type { DispatchOutbox } from '../application/messaging/dispatch-outbox'
import type { Logger } from '../application/ports/logger'

export interface RunningWorker {
  /** Stops after the pass in progress, so no message is left half-sent by a shutdown. */
  stop(): Promise<void>
}

/** Drains the outbox continuously, resting `idleMs` whenever a pass finds nothing to send. */
export function startOutboxWorker(dispatch: DispatchOutbox, logger: Logger, idleMs: number): RunningWorker {
  let running = true
  let wake: (() => void) | undefined
  const rest = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, idleMs)
      wake = () => {
        clearTimeout(timer)
        resolve()
      }
    })
  const loop = (async () => {
    while (running) {
      try {
        if ((await dispatch.runOnce()) > 0) continue
      } catch (error) {
        logger.error('outbox pass failed', { error: error instanceof Error ? error.message : String(error) })
      }
      if (running) await rest()
    }
  })()
  return {
    async stop() {
      running = false
      wake?.()
      await loop
    },
  }
}
