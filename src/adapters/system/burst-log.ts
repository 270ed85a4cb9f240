import type { Logger } from '../../application/ports/logger'

/** How long the repeats of a logged failure stay silent: counted, and told on the next line. */
export const BURST_WINDOW_MS = 60_000

/**
 * One line per burst of the same failure, not one per request: a full disk under load failed thousands of
 * requests a minute, and a line for each buried everything else. The first of a burst is written; its
 * repeats within BURST_WINDOW_MS are counted, and the first line after the window says how many were not written.
 */
export class BurstLog {
  private readonly bursts = new Map<string, { startedAt: number; unlogged: number }>()

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number = () => performance.now(),
  ) {}

  warn(message: string, fields: Record<string, unknown> = {}): void {
    const key = `${message}\u0000${JSON.stringify(fields)}`
    const burst = this.bursts.get(key)
    const now = this.now()
    if (burst && now - burst.startedAt < BURST_WINDOW_MS) {
      burst.unlogged++
      return
    }
    this.logger.warn(message, burst?.unlogged ? { ...fields, repeatsNotLogged: burst.unlogged } : fields)
    this.bursts.set(key, { startedAt: now, unlogged: 0 })
  }
}
