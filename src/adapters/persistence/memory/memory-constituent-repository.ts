import type { ConstituentRepository } from '../../../application/ports/repositories/constituent-repository'
import type { Constituent, Household } from '../../../domain/constituents/constituent'
import { matchKeysOf, type MatchKeys } from '../../../domain/constituents/matching'
import {
  isDigitWord,
  nameTermsOf,
  phoneTermsOf,
  SEARCH_TOTAL_BOUND,
  termsMatch,
  type ConstituentQuery,
} from '../../../domain/constituents/search'
import { boundedTotal, countCap, newestFirst, type Keyset, type PageRequest } from '../../../domain/shared/page'
import { copy } from './memory-store'
import { MemoryRepository, batchAfter, inOrganization, page } from './memory-repository'

export class MemoryConstituentRepository extends MemoryRepository implements ConstituentRepository {
  async insert(c: Constituent) {
    this.t.constituents.set(c.id, copy(c))
  }
  async insertMany(constituents: readonly Constituent[]) {
    for (const c of constituents) await this.insert(c)
  }
  async update(c: Constituent) {
    const stored = this.t.constituents.get(c.id)
    if (stored?.organizationId === c.organizationId) this.t.constituents.set(c.id, copy({ ...c, createdAt: stored.createdAt }))
  }
  async delete(organizationId: string, id: string) {
    if (this.t.constituents.get(id)?.organizationId === organizationId) this.t.constituents.delete(id)
  }
  async findById(organizationId: string, id: string) {
    return inOrganization(this.t.constituents.get(id), organizationId)
  }
  async findByIds(organizationId: string, ids: readonly string[]) {
    return this.inOrganization(organizationId)
      .filter((c) => ids.includes(c.id))
      .map(copy)
  }
  private inOrganization(organizationId: string) {
    return [...this.t.constituents.values()].filter((c) => c.organizationId === organizationId)
  }
  async findByMatchKeys(organizationId: string, keys: MatchKeys, excludeId: string, limitPerKey: number) {
    const found = new Map<string, Constituent>()
    for (const key of Object.keys(keys) as Array<keyof MatchKeys>) {
      if (keys[key] === undefined) continue
      const same = this.inOrganization(organizationId).filter((c) => c.id !== excludeId && matchKeysOf(c)[key] === keys[key])
      for (const c of same.slice(0, limitPerKey)) found.set(c.id, copy(c))
    }
    return [...found.values()]
  }
  async findSharingKeys(organizationId: string, keys: readonly MatchKeys[], limitPerKey: number) {
    const found = new Map<string, Constituent>()
    for (const key of ['phone', 'email', 'nameAndBirth', 'lastNameAndStreet'] as const) {
      const values = new Set(keys.map((k) => k[key]).filter((value) => value !== undefined))
      const same = this.inOrganization(organizationId).filter((c) => {
        const value = matchKeysOf(c)[key]
        return value !== undefined && values.has(value)
      })
      for (const c of same.slice(0, limitPerKey)) found.set(c.id, copy(c))
    }
    return [...found.values()]
  }
  async search(organizationId: string, query: ConstituentQuery, request: PageRequest, countUpTo = SEARCH_TOTAL_BOUND) {
    const found = page(this.matching(organizationId, query), request)
    if (query.kind === 'all') return found
    return { ...found, ...boundedTotal(found.total, countCap(request, countUpTo)) }
  }
  async searchAfter(organizationId: string, query: ConstituentQuery, after: Keyset | undefined, limit: number) {
    return batchAfter(this.matching(organizationId, query), after, limit)
  }
  /** Matching as `parseConstituentQuery` describes, newest first. */
  private matching(organizationId: string, query: ConstituentQuery) {
    const matches = (c: Constituent) => {
      switch (query.kind) {
        case 'all':
          return true
        case 'email':
          return matchKeysOf(c).email === query.email
        case 'phone':
          return termsMatch(phoneTermsOf(c), [query.digits])
        case 'words':
          return query.words.every((word) => termsMatch(isDigitWord(word) ? phoneTermsOf(c) : nameTermsOf(c), [word]))
      }
    }
    return this.inOrganization(organizationId).filter(matches).sort(newestFirst)
  }
  async listByHousehold(organizationId: string, householdId: string) {
    return this.inOrganization(organizationId)
      .filter((c) => c.householdId === householdId)
      .sort((a, b) => -newestFirst(a, b))
      .map(copy)
  }
  async findByPhone(organizationId: string, phone: string) {
    return this.inOrganization(organizationId)
      .filter((c) => c.phone === phone)
      .sort(newestFirst)
      .map(copy)
  }
  async idleSince(organizationId: string, before: Date, limit: number) {
    const active = (c: Constituent) =>
      [...this.t.needs.values()].some((n) => n.organizationId === organizationId && n.constituentId === c.id && n.updatedAt >= before)
    return this.inOrganization(organizationId)
      .filter((c) => !c.erasedAt && c.updatedAt < before && !active(c))
      .slice(0, limit)
      .map(copy)
  }
  async insertHousehold(h: Household) {
    this.t.households.set(h.id, copy(h))
  }
  async insertHouseholds(households: readonly Household[]) {
    for (const h of households) await this.insertHousehold(h)
  }
  async deleteHouseholdIfUnused(organizationId: string, householdId: string) {
    if (!inOrganization(this.t.households.get(householdId), organizationId)) return false
    const used =
      this.inOrganization(organizationId).some((c) => c.householdId === householdId) ||
      [...this.t.needs.values()].some((n) => n.organizationId === organizationId && n.householdId === householdId)
    if (used) return false
    this.t.households.delete(householdId)
    return true
  }
  async householdExists(organizationId: string, householdId: string) {
    return inOrganization(this.t.households.get(householdId), organizationId) !== undefined
  }
}
