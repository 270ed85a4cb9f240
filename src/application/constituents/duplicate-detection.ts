import type { Constituent } from '../../domain/constituents/constituent'
import type { ContactDetails } from '../../domain/constituents/contact'
import { matchKeysOf, sharedReasons, type MatchReason } from '../../domain/constituents/matching'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { Repositories } from '../ports/repositories'

export interface Candidate {
  constituent: Constituent
  reasons: MatchReason[]
}

/** Enough to tell a person "possible duplicates"; more would only be noise for them to wade through. */
const CANDIDATES_PER_KEY = 20
/** No record's id: details not yet registered exclude no one from their candidates. */
const NO_RECORD = ''

/**
 * Duplicate detection (docs/api.md "Needs"): runs when a constituent is created or its contact fields change,
 * inside the caller's transaction. Every candidate gets one household match, unless the pair already has
 * one (open, resolved or dismissed: a person's earlier decision stands).
 */
export class DuplicateDetection {
  constructor(
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /** Who a person with these details may be already, and why; `excludeId` is the person's own record, once registered. */
  async candidatesFor(r: Repositories, organizationId: string, details: ContactDetails, excludeId = NO_RECORD): Promise<Candidate[]> {
    const keys = matchKeysOf(details)
    if (Object.keys(keys).length === 0) return []
    const found = await r.constituents.findByMatchKeys(organizationId, keys, excludeId, CANDIDATES_PER_KEY)
    return found.map((c) => ({ constituent: c, reasons: sharedReasons(keys, matchKeysOf(c)) })).filter((c) => c.reasons.length > 0)
  }

  async run(r: Repositories, constituent: Constituent): Promise<Candidate[]> {
    const candidates = await this.candidatesFor(r, constituent.organizationId, constituent, constituent.id)
    if (candidates.length === 0) return []
    const existing = await r.householdMatches.listInvolving(constituent.organizationId, constituent.id)
    const paired = new Set(existing.flatMap((m) => [m.constituentId, m.candidateConstituentId]))
    for (const candidate of candidates) {
      if (paired.has(candidate.constituent.id)) continue
      await r.householdMatches.insert({
        id: this.ids.nextInTimeOrder(),
        organizationId: constituent.organizationId,
        constituentId: constituent.id,
        candidateConstituentId: candidate.constituent.id,
        reason: candidate.reasons.join(', '),
        status: 'OPEN',
        createdAt: this.clock.now(),
      })
    }
    return candidates
  }
}
