import { randomUUID } from 'node:crypto'

// Helpers of the persistence contract tests (the builders are tests/support/builders.ts).

const T0 = new Date('2026-11-22T09:00:00.000Z').getTime()
/** A time `n` minutes after the suite's origin. */
export const minute = (n: number) => new Date(T0 + n * 60_000)

/** The optional keys that are present on a record, expected to be none. */
export function presentKeys(record: object | undefined, keys: string[]): string[] {
  if (!record) throw new Error('expected a record, got undefined')
  return keys.filter((key) => key in record)
}

/** Every item of a list (the tests write a few). */
export const ALL = { page: 1, limit: 100 }

export const realTimer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** The error a promise rejects with; fails the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection, but the promise resolved')
}

export const ids = (records: Array<{ id: string }>) => records.map((r) => r.id)
export const byId = <T extends { id: string }>(records: T[]) => [...records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
/** `n` fresh ids in ascending order. */
export const ascendingIds = (n: number) => Array.from({ length: n }, () => randomUUID()).sort()
