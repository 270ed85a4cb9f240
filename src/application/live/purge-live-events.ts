import { LIVE_REPLAY_WINDOW_MS } from '../../domain/webhooks/live-event'
import type { Clock } from '../ports/clock'
import type { UnitOfWork } from '../ports/unit-of-work'

/** Events deleted per transaction: the writer is never held long. */
const BATCH = 1000

/** Live events past the replay window (docs/events.md "The live stream"), run by the worker. Answers how many went. */
export class PurgeLiveEvents {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - LIVE_REPLAY_WINDOW_MS)
    let purged = 0
    for (let deleted = BATCH; deleted === BATCH; purged += deleted) {
      deleted = await this.unitOfWork.run((r) => r.liveEvents.purge(before, BATCH))
    }
    return purged
  }
}
