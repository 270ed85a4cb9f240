import type { NeedFilter, NeedRepository, UnnumberedNeed } from '../../../application/ports/repositories/need-repository'
import { NotFoundError } from '../../../domain/errors'
import { formatReferenceNumber, isOpen, isOpenAndDueBefore, type Need, type NeedChange } from '../../../domain/needs/need'
import { SEARCH_TOTAL_BOUND } from '../../../domain/constituents/search'
import { needMatches, needOrder, needTextTermsOf, personTermsOf, referenceTermsOf, type NeedSort } from '../../../domain/needs/search'
import { boundedTotal, countCap, newestFirst, offsetOf, type Keyset, type Page, type PageRequest } from '../../../domain/shared/page'
import { copy } from './memory-store'
import { MemoryRepository, batchAfter, inOrganization, page } from './memory-repository'

export class MemoryNeedRepository extends MemoryRepository implements NeedRepository {
  async insert(need: Need) {
    this.t.needs.set(need.id, copy(need))
  }
  async insertMany(needs: readonly UnnumberedNeed[]) {
    const referenceNumbers: string[] = []
    for (const need of needs) {
      const referenceNumber = this.takeReferenceNumber(need.organizationId)
      await this.insert({ ...need, referenceNumber })
      referenceNumbers.push(referenceNumber)
    }
    return { referenceNumbers: Promise.resolve(referenceNumbers) }
  }
  /** The organization's next number, from the transaction's copy of its sequence: rolled back with it. */
  private takeReferenceNumber(organizationId: string): string {
    const organization = this.t.organizations.get(organizationId)
    if (!organization) throw new NotFoundError('Organization')
    organization.needSequence += 1
    return formatReferenceNumber(organization.shortCode, organization.needSequence)
  }
  async update(need: Need) {
    if (this.t.needs.get(need.id)?.organizationId !== need.organizationId) return
    this.t.needs.set(need.id, copy(need))
    this.t.needTextCleared.delete(need.id)
  }
  async clearResolvedText(organizationId: string, before: Date, at: Date, limit: number) {
    const due = [...this.t.needs.values()]
      .filter(
        (n) => n.organizationId === organizationId && n.status === 'RESOLVED' && n.updatedAt < before && !this.t.needTextCleared.has(n.id),
      )
      .slice(0, limit)
    for (const need of due) {
      this.t.needs.set(need.id, { ...need, customFields: {} })
      this.t.needTextCleared.set(need.id, at)
    }
    return due.map((n) => n.id)
  }
  /** The memory store is never older than its search: every need's words are found from the need itself. */
  async indexTextBacklog() {
    return 0
  }
  async findById(organizationId: string, id: string) {
    return inOrganization(this.t.needs.get(id), organizationId)
  }
  async findByReferenceNumber(organizationId: string, referenceNumber: string) {
    return copy([...this.t.needs.values()].find((n) => n.organizationId === organizationId && n.referenceNumber === referenceNumber))
  }
  async findCreatedAt(organizationId: string, times: readonly Date[]) {
    const wanted = new Set(times.map((time) => time.getTime()))
    return [...this.t.needs.values()].filter((n) => n.organizationId === organizationId && wanted.has(n.createdAt.getTime())).map(copy)
  }
  private matching(organizationId: string, filter: NeedFilter): Need[] {
    return [...this.t.needs.values()]
      .filter(
        (n) =>
          n.organizationId === organizationId &&
          (!filter.statuses || filter.statuses.includes(n.status)) &&
          (!filter.partnerId || n.partnerId === filter.partnerId) &&
          (!filter.assignedTo || n.assignedTo === filter.assignedTo) &&
          (!filter.constituentId || n.constituentId === filter.constituentId) &&
          (!filter.openDueBefore || isOpenAndDueBefore(n, filter.openDueBefore)) &&
          (!filter.needsAttention || n.needsAttention === true) &&
          inPeriods(n, filter) &&
          (!filter.search || needMatches([...termsOf(n), ...personTermsOf(this.personOf(n), n)], filter.search)),
      )
      .sort(newestFirst)
  }
  /** The person on file the need is for, as the constituents hold them now (renamed, merged or erased). */
  private personOf(need: Need) {
    const person = need.constituentId === undefined ? undefined : this.t.constituents.get(need.constituentId)
    return person?.organizationId === need.organizationId ? person : undefined
  }
  async list(organizationId: string, filter: NeedFilter, page: PageRequest, sort?: NeedSort): Promise<Page<Need>> {
    const found = this.matching(organizationId, filter)
    const matching = sort ? found.sort(needOrder(sort)) : filter.openDueBefore ? found.sort(soonestDue) : found
    const start = offsetOf(page)
    const items = matching.slice(start, start + page.limit).map(copy)
    if (!filter.search) return { items, total: matching.length }
    const cap = countCap(page, SEARCH_TOTAL_BOUND)
    return { items, ...boundedTotal(matching.length, cap) }
  }
  async listAfter(organizationId: string, filter: NeedFilter, after: Keyset | undefined, limit: number) {
    return batchAfter(this.matching(organizationId, filter), after, limit)
  }
  async appendChanges(changes: NeedChange[]) {
    this.t.needChanges.push(...copy(changes))
  }
  async listChanges(organizationId: string, needId: string, request: PageRequest) {
    return page(
      this.t.needChanges.filter((c) => c.organizationId === organizationId && c.needId === needId),
      request,
    )
  }
  private needsOf(organizationId: string, constituentId: string) {
    return [...this.t.needs.values()].filter((n) => n.organizationId === organizationId && n.constituentId === constituentId)
  }
  async moveConstituent(organizationId: string, fromConstituentId: string, toConstituentId: string, householdId: string) {
    for (const need of this.needsOf(organizationId, fromConstituentId)) Object.assign(need, { constituentId: toConstituentId, householdId })
  }
  async setAttention(organizationId: string, needId: string, attention: boolean) {
    const need = this.t.needs.get(needId)
    if (need?.organizationId !== organizationId) return
    if (attention) need.needsAttention = true
    else delete need.needsAttention
  }
  async newestOfConstituents(organizationId: string, constituentIds: string[], openOnly = false) {
    return [...this.t.needs.values()]
      .filter((n) => n.organizationId === organizationId && n.constituentId !== undefined && constituentIds.includes(n.constituentId))
      .filter((n) => !openOnly || isOpen(n.status))
      .sort(newestFirst)
      .slice(0, 20)
      .map(copy)
  }
  async setHouseholdOfConstituent(organizationId: string, constituentId: string, householdId: string) {
    for (const need of this.needsOf(organizationId, constituentId)) need.householdId = householdId
  }
}

/** What a need is found by: its reference number's words and its text's. */
function termsOf(need: Need) {
  return [...referenceTermsOf(need.referenceNumber).map((term) => ({ kind: 'r' as const, term })), ...needTextTermsOf(need)]
}

/** A list with a due bound: soonest due first, `id` as tie-break (every such need has a due date). */
function soonestDue(a: Need, b: Need): number {
  return a.dueDate!.getTime() - b.dueDate!.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

/** Within the filter's periods: created at or after `createdFrom` and before `createdTo`, resolved likewise. */
function inPeriods(need: Need, filter: NeedFilter): boolean {
  const within = (at: Date | undefined, from?: Date, to?: Date) =>
    (!from && !to) || (at !== undefined && (!from || at >= from) && (!to || at < to))
  return within(need.createdAt, filter.createdFrom, filter.createdTo) && within(need.resolvedAt, filter.resolvedFrom, filter.resolvedTo)
}
