import { randomUUID } from 'node:crypto'
import type { Constituent, Household } from '../../../src/domain/constituents/constituent'
import type { HouseholdMatch } from '../../../src/domain/constituents/household-match'
import type { AuditEvent } from '../../../src/domain/audit/audit-event'

// Helpers and builders of the persistence contract tests.

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

export function aHousehold(overrides: Partial<Household> & Pick<Household, 'organizationId'>): Household {
  return { id: randomUUID(), createdAt: minute(0), ...overrides }
}

/** An update of a need unless told otherwise. */
export function anAuditEvent(overrides: Partial<AuditEvent> & Pick<AuditEvent, 'organizationId'>): AuditEvent {
  return { id: randomUUID(), action: 'update', recordType: 'need', recordId: randomUUID(), at: minute(0), ...overrides }
}

/** A constituent with no contact field at all unless given. */
export function aConstituent(overrides: Partial<Constituent> & Pick<Constituent, 'organizationId' | 'householdId'>): Constituent {
  return { id: randomUUID(), createdAt: minute(0), updatedAt: minute(0), ...overrides }
}

export function aHouseholdMatch(
  overrides: Partial<HouseholdMatch> & Pick<HouseholdMatch, 'organizationId' | 'constituentId' | 'candidateConstituentId'>,
): HouseholdMatch {
  return { id: randomUUID(), reason: 'same phone', status: 'OPEN', createdAt: minute(0), ...overrides }
}
