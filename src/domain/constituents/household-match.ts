// docs/constituents.md
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
