import type { Actor } from '../../domain/auth/actor'
import type { Constituent } from '../../domain/constituents/constituent'
import type { ContactDetails } from '../../domain/constituents/contact'
import type { DuplicateHints } from '../../domain/constituents/duplicate-hints'
import { duplicateWarning, matchKeysOf, sharedReasons, type MatchKeys, type MatchReason } from '../../domain/constituents/matching'
import { withoutHiddenContact } from '../../domain/constituents/redaction'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { Repositories } from '../ports/repositories'

/** Those of `found` sharing a key with `keys`, and which keys. */
function candidatesAmong(keys: MatchKeys, found: readonly Constituent[]): Candidate[] {
  return found.map((c) => ({ constituent: c, reasons: sharedReasons(keys, matchKeysOf(c)) })).filter((c) => c.reasons.length > 0)
}

/** Each key as one name: its kind and its value. */
function keyNames(keys: MatchKeys): string[] {
  return Object.entries(keys).map(([kind, value]) => `${kind}:${value}`)
}

export interface Candidate {
  constituent: Constituent
  reasons: MatchReason[]
}

/**
 * A constituent just registered and every candidate found on all its details: what the record keeps (the
 * household matches, a need's warning), never an answer as it is (`DuplicateDetection.candidatesShownTo`).
 */
export interface Registered {
  constituent: Constituent
  candidates: Candidate[]
}

/** What a creation or a check answers of the candidates shown to its caller. */
export function hintsOf(shown: readonly Candidate[]): DuplicateHints {
  const warning = duplicateWarning(shown)
  if (warning === undefined) return {}
  return { possibleDuplicates: shown.map((c) => ({ constituentId: c.constituent.id, reasons: c.reasons })), duplicateWarning: warning }
}

/** Enough to tell a person "possible duplicates"; more would only be noise for them to wade through. */
const CANDIDATES_PER_KEY = 20
/** No record's id: details not yet registered exclude no one from their candidates. */
const NO_RECORD = ''

/**
 * Duplicate detection (docs/api/needs.md "Needs"): runs when a constituent is created or its contact fields change,
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
    return candidatesAmong(keys, found)
  }

  /**
   * Who a person may be already, as `actor` may learn it (docs/constituents.md "Duplicate detection"): matched
   * on the details it may read only. A match on one it may not read would tell it whether that detail is on
   * file, so such a detail neither finds a candidate nor adds a reason: the answer is the same whether or not
   * it is on file. `person`: details not registered (a check), or a person just registered with the
   * candidates found on all their details, reused when the actor may read every detail that made a key.
   */
  async candidatesShownTo(r: Repositories, actor: Actor, person: ContactDetails | Registered): Promise<Candidate[]> {
    if (!('candidates' in person)) return this.candidatesFor(r, actor.organizationId, withoutHiddenContact(actor, person))
    const { constituent, candidates } = person
    // No one shares any key: no one shares those the actor may read.
    if (candidates.length === 0) return []
    const readable = withoutHiddenContact(actor, constituent)
    if (Object.keys(matchKeysOf(readable)).length === Object.keys(matchKeysOf(constituent)).length) return candidates
    return this.candidatesFor(r, actor.organizationId, readable, constituent.id)
  }

  async run(r: Repositories, constituent: Constituent): Promise<Candidate[]> {
    const candidates = await this.candidatesFor(r, constituent.organizationId, constituent, constituent.id)
    if (candidates.length === 0) return []
    const existing = await r.householdMatches.listInvolving(constituent.organizationId, constituent.id)
    const paired = new Set(existing.flatMap((m) => [m.constituentId, m.candidateConstituentId]))
    await this.open(
      r,
      constituent,
      candidates.filter((candidate) => !paired.has(candidate.constituent.id)),
    )
    return candidates
  }

  /**
   * Detection for constituents just added together (in this order, one organization's), as if each had been
   * added alone after the ones before: its candidates are those on file and the earlier ones of the list.
   * One lookup for all; a new constituent has no match yet to respect.
   */
  async runForNew(r: Repositories, constituents: readonly Constituent[]): Promise<Candidate[][]> {
    const keys = constituents.map((c) => matchKeysOf(c))
    if (keys.every((k) => Object.keys(k).length === 0)) return constituents.map(() => [])
    const organizationId = constituents[0]!.organizationId
    const found = await r.constituents.findSharingKeys(organizationId, keys, CANDIDATES_PER_KEY * constituents.length)
    const position = new Map(constituents.map((c, i) => [c.id, i]))
    // Who holds each key, so that each constituent's candidates are looked up, not searched for.
    const holders = new Map<string, Constituent[]>()
    for (const c of found) {
      for (const key of keyNames(matchKeysOf(c))) holders.set(key, [...(holders.get(key) ?? []), c])
    }
    const all: Candidate[][] = []
    for (const [i, constituent] of constituents.entries()) {
      const before = new Map<string, Constituent>()
      for (const key of keyNames(keys[i]!)) {
        for (const holder of holders.get(key) ?? []) if ((position.get(holder.id) ?? -1) < i) before.set(holder.id, holder)
      }
      const candidates = candidatesAmong(keys[i]!, [...before.values()]).slice(0, CANDIDATES_PER_KEY * Object.keys(keys[i]!).length)
      await this.open(r, constituent, candidates)
      all.push(candidates)
    }
    return all
  }

  /** One open household match for each candidate, all in one write. */
  private async open(r: Repositories, constituent: Constituent, candidates: readonly Candidate[]): Promise<void> {
    await r.householdMatches.insertMany(
      candidates.map((candidate) => ({
        id: this.ids.nextInTimeOrder(),
        organizationId: constituent.organizationId,
        constituentId: constituent.id,
        candidateConstituentId: candidate.constituent.id,
        reason: candidate.reasons.join(', '),
        status: 'OPEN' as const,
        createdAt: this.clock.now(),
      })),
    )
  }
}
