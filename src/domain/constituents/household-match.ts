// docs/constituents.md
import type { MatchReason } from './matching'

export const MATCH_STATUSES = ['OPEN', 'RESOLVED', 'DISMISSED'] as const
export type MatchStatus = (typeof MATCH_STATUSES)[number]

export const RESOLVE_ACTIONS = ['MERGE_CONSTITUENT', 'MERGE_HOUSEHOLD', 'DISMISS'] as const
export type ResolveAction = (typeof RESOLVE_ACTIONS)[number]

/** A possible duplicate: `constituentId` was found to resemble `candidateConstituentId`. */
export interface HouseholdMatch {
  id: string
  organizationId: string
  constituentId: string
  candidateConstituentId: string
  /** The reasons found, joined with ", " (e.g. "same phone, same email"). */
  reason: string
  status: MatchStatus
  createdAt: Date
  resolvedAt?: Date
  resolvedBy?: string
  action?: ResolveAction
}

export function statusAfter(action: ResolveAction): MatchStatus {
  return action === 'DISMISS' ? 'DISMISSED' : 'RESOLVED'
}

/** The reasons of a match, one by one. */
export function reasonsOf(match: Pick<HouseholdMatch, 'reason'>): MatchReason[] {
  return match.reason.split(', ') as MatchReason[]
}
