import { describe, expect, test } from 'bun:test'
import { canTransition, NEED_STATUSES, type NeedStatus } from '../../../src/domain/needs/need'

// docs/api/needs.md "Needs": any status other than RESOLVED may move to any other; RESOLVED only to IN_PROGRESS
// (reopen); staying in the same status is allowed. Written out cell by cell, not derived.
const STATUSES = ['NEW', 'IN_PROGRESS', 'PENDING_INTERNAL', 'PENDING_CLIENT', 'RESOLVED', 'ESCALATED'] as const

// prettier-ignore
const ALLOWED: Record<NeedStatus, Record<NeedStatus, boolean>> = {
  //                 NEW    IN_PROGRESS PENDING_INTERNAL PENDING_CLIENT RESOLVED ESCALATED
  NEW: { NEW: true, IN_PROGRESS: true, PENDING_INTERNAL: true, PENDING_CLIENT: true, RESOLVED: true, ESCALATED: true },
  IN_PROGRESS: { NEW: true, IN_PROGRESS: true, PENDING_INTERNAL: true, PENDING_CLIENT: true, RESOLVED: true, ESCALATED: true },
  PENDING_INTERNAL: { NEW: true, IN_PROGRESS: true, PENDING_INTERNAL: true, PENDING_CLIENT: true, RESOLVED: true, ESCALATED: true },
  PENDING_CLIENT: { NEW: true, IN_PROGRESS: true, PENDING_INTERNAL: true, PENDING_CLIENT: true, RESOLVED: true, ESCALATED: true },
  RESOLVED: { NEW: false, IN_PROGRESS: true, PENDING_INTERNAL: false, PENDING_CLIENT: false, RESOLVED: true, ESCALATED: false },
  ESCALATED: { NEW: true, IN_PROGRESS: true, PENDING_INTERNAL: true, PENDING_CLIENT: true, RESOLVED: true, ESCALATED: true },
}

describe('need status transitions', () => {
  test('the domain knows exactly the six statuses of the interface, NEW first', () => {
    expect([...NEED_STATUSES]).toEqual([...STATUSES])
  })

  for (const from of STATUSES) {
    for (const to of STATUSES) {
      const allowed = ALLOWED[from][to]
      test(`${from} -> ${to} is ${allowed ? 'allowed' : 'refused'}`, () => {
        expect(canTransition(from, to)).toBe(allowed)
      })
    }
  }

  test('of the 36 pairs, only the four moves out of RESOLVED other than reopening are refused', () => {
    const pairs = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as const))
    const refused = pairs.filter(([from, to]) => !canTransition(from, to)).map(([from, to]) => `${from}->${to}`)
    expect(pairs).toHaveLength(36)
    expect(refused).toEqual(['RESOLVED->NEW', 'RESOLVED->PENDING_INTERNAL', 'RESOLVED->PENDING_CLIENT', 'RESOLVED->ESCALATED'])
  })
})
