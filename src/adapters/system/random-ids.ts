import type { Clock } from '../../application/ports/clock'
import type { IdGenerator } from '../../application/ports/ids'

export class RandomIds implements IdGenerator {
  /** The millisecond of the last time-ordered id: the next never takes an earlier one. */
  private last = 0

  constructor(private readonly clock: Clock) {}

  next(): string {
    return crypto.randomUUID()
  }
  nextInTimeOrder(): string {
    // Within one millisecond Bun's counter keeps the order; across them the time never goes back, even if
    // the clock a test or an operator gives does.
    this.last = Math.max(this.last, this.clock.now().getTime())
    return Bun.randomUUIDv7('hex', this.last)
  }
}
