import type { UseCases } from '../application/use-cases'
import type { Logger } from '../application/ports/logger'

export interface RunningWorker {
  /** Claims nothing more and waits for every send in flight, so a shutdown leaves no message half-sent. */
  stop(): Promise<void>
}

/**
 * Keeps the outbox moving: claims what the organizations' free slots allow, sends each message as soon as
 * it is claimed, and claims again whenever a send ends (a slot frees up) or every `idleMs`.
 */
export function startOutboxWorker(dispatch: UseCases['operations']['dispatchOutbox'], logger: Logger, idleMs: number): RunningWorker {
  let running = true
  let claiming: Promise<void> | undefined
  let claimAgain = false
  let timer: ReturnType<typeof setTimeout> | undefined
  /** While claims keep failing (the database is away), say so once, not once a poll. */
  let failing = false
  const sending = new Set<Promise<void>>()

  const pump = (): void => {
    if (!running) return
    if (claiming) {
      claimAgain = true
      return
    }
    claiming = (async () => {
      do {
        claimAgain = false
        const claimed = await dispatch.claim()
        for (const message of claimed) {
          const delivery: Promise<void> = dispatch.deliver(message).finally(() => {
            sending.delete(delivery)
            pump()
          })
          sending.add(delivery)
        }
      } while (claimAgain && running)
      if (failing) logger.info('outbox worker claims again')
      failing = false
    })()
      .catch((error) => {
        if (!failing) logger.error('outbox claim failed; retrying every poll', { error })
        failing = true
      })
      .finally(() => (claiming = undefined))
  }
  const tick = () => {
    pump()
    if (running) timer = setTimeout(tick, idleMs)
  }
  tick()

  return {
    async stop() {
      running = false
      clearTimeout(timer)
      await claiming
      await Promise.all([...sending])
    },
  }
}
