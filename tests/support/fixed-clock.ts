import type { Clock } from '../../src/application/ports/clock'

/** A clock that moves only when told to. */
export class FixedClock implements Clock {
  private current: number

  constructor(start = '2026-11-22T09:00:00.000Z') {
    this.current = new Date(start).getTime()
  }

  now(): Date {
    return new Date(this.current)
  }

  advance(ms: number): void {
    this.current += ms
  }
}
