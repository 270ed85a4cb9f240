import type { Clock } from '../../application/ports/clock'

/**
 * The service's time: one reading of a reference clock (the machine's wall clock when the process starts,
 * then the database's, see `follow`), carried forward by the monotonic clock. A step of the wall clock (an
 * NTP correction, a resumed virtual machine) moves neither leases nor the order of lists: within a process
 * time never goes back and never jumps (docs/faults.md "Clock steps").
 */
export class SystemClock implements Clock {
  private origin: number
  private start: number

  constructor(
    wall: () => number = () => Date.now(),
    private readonly elapsed: () => number = () => performance.now(),
  ) {
    this.origin = wall()
    this.start = elapsed()
  }

  now(): Date {
    return new Date(this.origin + (this.elapsed() - this.start))
  }

  /**
   * Counts from `reference` from now on: the database's clock, read once at start before anything is
   * written, so that every process on one database measures leases and orders records by the same time.
   */
  follow(reference: Date): void {
    this.origin = reference.getTime()
    this.start = this.elapsed()
  }
}
