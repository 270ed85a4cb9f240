import { and, asc, count, desc, eq, exists, gte, inArray, lt, ne, sql, type SQL } from 'drizzle-orm'
import type { NeedFilter } from '../../../application/ports/repositories/need-repository'
import { SEARCH_TOTAL_BOUND } from '../../../domain/constituents/search'
import { NEED_STATUSES, type Need } from '../../../domain/needs/need'
import { needTextTermsOf, type NeedSearch, type NeedSort } from '../../../domain/needs/search'
import { boundedTotal, countCap, offsetOf, type Page, type PageRequest } from '../../../domain/shared/page'
import { byPerson, longestOf, personKinds, prefixEnd } from './need-search-sql'
import { openAndDueBefore } from './sql-open-due'
import { periodConditions } from './sql-need-periods'
import { recordsOf, type RowReader } from './row-reader'
import { INSIDE, toNeed } from './sql-need-rows'
import type { SQLiteSelect } from 'drizzle-orm/sqlite-core'
import { SqlRepository, chunksOf } from './sql-repository'

/**
 * What the need repository shares with its search (docs/api/needs.md "Search and sort"): a filter as SQL, a
 * sort's order, and the words of need_terms, written with each need. A search's matches are found from its
 * longest word's range of terms (need_terms' primary key, within the organization and the kinds the reader
 * may see) and, for a reader of names, the needs of the people on file whose names it begins (their search
 * index, then needs_by_constituent), each need then checked for every word among its own terms
 * (need_terms_by_need) or its person's name, and for the other filters. They are counted up to a cap, as constituent search's (`countMatches`): up to it the page is read
 * by key and sorted, at most the cap's needs; past it, in an order an index keeps, the page is read by
 * walking the organization's needs in that order, each tested for the words, so a common word is found in a
 * few rows a match, whatever the size of the organization.
 */
export abstract class SqlNeedSearch extends SqlRepository {
  /** The people on file, found by name in their own search index: a need's person's name is never copied into its terms. */
  private readonly people = new this.dialect.ConstituentSearch(this.db, this.dialect, this.statements)

  /** Needs read by a prepared statement of the whole row come straight from the driver's values (row-reader.ts). */
  protected get records(): RowReader<Need> {
    return recordsOf(this.tables.needs, INSIDE) as RowReader<Need>
  }

  /**
   * The needs of the organization that `filter` keeps. `prepared`: each value is a placeholder named after
   * its key (a list's statement; the due bound's is `before`, given `dueTimeOf`); otherwise the value itself.
   * A search is never prepared: its words are values. `found` is how its matches are found: `byKey` from its
   * longest word's range; `walk`, each need's own terms tested, for a walk through an index of the list.
   */
  protected matching(filter: NeedFilter & { organizationId: string }, prepared: boolean, found: Found = 'byKey'): SQL | undefined {
    const t = this.tables.needs
    const v = (key: string, actual: string) => (prepared ? sql.placeholder(key) : actual)
    const byKey = filter.search !== undefined && found === 'byKey'
    const organization =
      // Found by key, the needs are read by id: `|| ''` keeps the planner from walking the organization's
      // needs through an index of its own and testing each.
      byKey ? sql`${t.organizationId} || '' = ${filter.organizationId}` : eq(t.organizationId, v('organizationId', filter.organizationId))
    return and(
      organization,
      filter.statuses
        ? inArray(
            t.status,
            filter.statuses.map((status, i) => v(`status${i}`, status)),
          )
        : undefined,
      filter.partnerId ? eq(t.partnerId, v('partnerId', filter.partnerId)) : undefined,
      filter.assignedTo ? eq(t.assignedTo, v('assignedTo', filter.assignedTo)) : undefined,
      filter.constituentId ? eq(t.constituentId, v('constituentId', filter.constituentId)) : undefined,
      filter.openDueBefore ? openAndDueBefore(t, prepared ? sql.placeholder('before') : filter.openDueBefore) : undefined,
      ...periodConditions(t, filter, prepared),
      // The condition of the index needs_needing_attention.
      filter.needsAttention ? sql`${t.needsAttention}` : undefined,
      // Found by key, every need read has the longest word: only the others are checked.
      ...(byKey ? [inArray(t.id, this.longestWordEntries(filter.organizationId, filter.search!))] : []),
      ...(filter.search ? this.withEveryWord(filter.organizationId, filter.search, byKey ? longestOf(filter.search) : undefined) : []),
    )
  }

  /** The ids of the needs whose readable terms (a range of the key) or, for a reader of names, person the longest word begins. */
  private longestWordEntries(organizationId: string, search: NeedSearch) {
    const terms = this.tables.needTerms
    const word = longestOf(search)
    const own = this.db
      .select({ id: terms.needId })
      .from(terms)
      .where(and(eq(terms.organizationId, organizationId), this.begunBy(word), this.ofKinds(search)))
    return byPerson(search) ? own.unionAll(this.needsOfPeopleNamed(organizationId, search, word)) : own
  }

  /** The ids of the organization's needs for a person on file with a word of their names that `word` begins. */
  private needsOfPeopleNamed(organizationId: string, search: NeedSearch, word: string) {
    const t = this.tables.needs
    return this.db
      .select({ id: t.id })
      .from(t)
      .where(
        and(
          eq(t.organizationId, organizationId),
          this.people.idOfPersonNamed(t.constituentId, organizationId, word),
          personKinds(t, search),
        ),
      )
  }

  /**
   * Each word but `found` (the needs' key) begins a readable term of the need's own or, for a reader of names, a
   * word of its person's name. One EXISTS of both, not an OR: under an OR, PostgreSQL first hashes every need
   * the word begins a term of, where a walk needs a few.
   */
  private withEveryWord(organizationId: string, search: NeedSearch, found?: string): SQL[] {
    const terms = this.tables.needTerms
    const t = this.tables.needs
    const c = this.tables.constituents
    return search.words
      .filter((word) => word !== found)
      .map((word) => {
        const own = this.db
          .select({ one: sql`1` })
          .from(terms)
          .where(and(eq(terms.needId, t.id), this.begunBy(word), this.ofKinds(search)))
        if (!byPerson(search)) return exists(own)
        const person = this.db
          .select({ one: sql`1` })
          .from(c)
          // The need's column, not the person's: PostgreSQL hashes the people once, not checks each for each need.
          .where(
            and(eq(c.id, t.constituentId), inArray(t.constituentId, this.people.namedBy(organizationId, word)), personKinds(t, search)),
          )
        return exists(own.unionAll(person))
      })
  }

  /** Terms of the kinds the reader may find needs by, of those need_terms holds. */
  private ofKinds(search: NeedSearch): SQL {
    const stored = search.kinds.filter((kind) => kind !== 'p' && kind !== 'q')
    return inArray(this.tables.needTerms.kind, stored)
  }

  /** Terms that `word` begins: the range of the key from it to the first text after every one it begins. */
  private begunBy(word: string): SQL {
    return and(gte(this.tables.needTerms.term, word), lt(this.tables.needTerms.term, prefixEnd(word)))!
  }

  /** The list's order: `sort`'s (`needOrder`), else newest first, or soonest due first for a due bound. */
  protected orderOf(sort: NeedSort | undefined, due: boolean): SQL[] {
    const t = this.tables.needs
    if (!sort) return due ? [asc(t.dueDate), asc(t.id)] : [desc(t.createdAt), desc(t.id)]
    const direction = sort.startsWith('-') ? desc : asc
    if (sort.endsWith('createdAt')) return [direction(t.createdAt), direction(t.id)]
    const newest = [desc(t.createdAt), desc(t.id)]
    if (sort.endsWith('dueDate')) return [sql`${t.dueDate} IS NULL`, direction(t.dueDate), ...newest]
    const rank = sql.join(
      NEED_STATUSES.map((status, i) => sql.raw(`WHEN '${status}' THEN ${i}`)),
      sql` `,
    )
    return [direction(sql`CASE ${t.status} ${rank} END`), ...newest]
  }

  /** A search's page in `sort`'s order, its total counted up to the cap (docs/api/conventions.md "Lists"). */
  protected async searchPage(organizationId: string, filter: NeedFilter, page: PageRequest, sort?: NeedSort): Promise<Page<Need>> {
    const t = this.tables.needs
    const cap = countCap(page, SEARCH_TOTAL_BOUND)
    const counted = await this.countMatches(organizationId, filter, cap)
    const total = boundedTotal(counted, cap)
    if (total.total === 0) return { items: [], ...total }
    // Many matches in an order an index keeps (newest or oldest first, soonest due for a due bound): walked.
    const walk = total.totalIsLowerBound && (sort === undefined || sort.endsWith('createdAt'))
    const where = this.matching({ ...filter, organizationId }, false, walk ? 'walk' : 'byKey')
    const rows = await this.db
      .select()
      .from(t)
      .where(where)
      .orderBy(...this.orderOf(sort, filter.openDueBefore !== undefined))
      .limit(page.limit)
      .offset(offsetOf(page))
    return { items: rows.map(toNeed), ...total }
  }

  /**
   * How many needs the search finds, up to `cap + 1`, in about √(cap × the organization's needs) rows either
   * way: its longest word's entries are counted up to that many. Fewer, and the matches are counted from
   * them by key; more, and the word is common enough that walking the organization's needs, each checked,
   * passes the cap in fewer rows than the word has entries.
   */
  private async countMatches(organizationId: string, filter: NeedFilter, cap: number): Promise<number> {
    const upTo = async (limit: number, rows: SQLiteSelect) => {
      const [counted] = await this.db.select({ n: count() }).from(rows.limit(limit).as('rows'))
      return Number(counted?.n ?? 0)
    }
    const kept = this.tables.needCounts
    const [all] = await this.db
      .select({ n: sql<number | string | null>`sum(${kept.needs})` })
      .from(kept)
      .where(eq(kept.organizationId, organizationId))
    const enough = Math.ceil(Math.sqrt(cap * Number(all?.n ?? 0)))
    const longest = this.longestWordEntries(organizationId, filter.search!)
    const found: Found = (await upTo(enough + 1, longest.$dynamic())) <= enough ? 'byKey' : 'walk'
    const t = this.tables.needs
    return upTo(
      cap + 1,
      this.db
        .select({ one: sql`1` })
        .from(t)
        .where(this.matching({ ...filter, organizationId }, false, found))
        .$dynamic(),
    )
  }

  /**
   * The words of new needs: their reference numbers' (`referenceTermsOf`, in SQL, as PostgreSQL numbers a need
   * as it goes in) and their text's. One need's are sent on with what follows.
   */
  protected async addTerms(needs: ReadonlyArray<Pick<Need, 'id' | 'organizationId' | 'customFields' | 'isConfidential'>>) {
    const t = this.tables.needs
    const organizationId = needs[0]!.organizationId
    const reference = (term: SQL) =>
      this.db
        .select({
          organizationId: t.organizationId,
          term: sql<string>`${term}`.as('term'),
          kind: sql<string>`'r'`.as('kind'),
          needId: t.id,
        })
        .from(t)
        .where(
          and(
            eq(t.organizationId, organizationId),
            inArray(
              t.id,
              needs.map((need) => need.id),
            ),
          ),
        )
    const code = reference(sql`rtrim(lower(${t.referenceNumber}), '0123456789-')`)
    const number = reference(sql`ltrim(lower(${t.referenceNumber}), 'abcdefghijklmnopqrstuvwxyz-')`)
    await this.unread(this.db.insert(this.tables.needTerms).select(code.union(number)))
    await this.addTextTerms(needs)
  }

  /** The words of needs' text, after any they had: written again whenever a need is (`update`). */
  protected async replaceTextTerms(need: Pick<Need, 'id' | 'organizationId' | 'customFields' | 'isConfidential'>) {
    await this.removeTextTerms(need.organizationId, [need.id])
    await this.addTextTerms([need])
  }

  async indexTextBacklog(limit: number): Promise<number> {
    const backlog = this.tables.needTermsBacklog
    const t = this.tables.needs
    const next = await this.db.select({ needId: backlog.needId }).from(backlog).limit(limit)
    if (next.length === 0) return 0
    // Taken off first: a write of one of these needs takes it off first too (`leaveBacklog`), so it either
    // waits for this transaction and then indexes its own text, or has taken it and this one skips it.
    const taken = await this.db
      .delete(backlog)
      .where(
        inArray(
          backlog.needId,
          next.map((row) => row.needId),
        ),
      )
      .returning({ needId: backlog.needId })
    if (taken.length === 0) return 0
    const needs = await this.db
      .select({ id: t.id, organizationId: t.organizationId, customFields: t.customFields, isConfidential: t.isConfidential })
      .from(t)
      .where(
        inArray(
          t.id,
          taken.map((row) => row.needId),
        ),
      )
    for (const need of needs) await this.removeTextTerms(need.organizationId, [need.id])
    await this.addTextTerms(needs)
    return taken.length
  }

  /** A need about to be written leaves the backlog first (`indexTextBacklog`): its write indexes its text. */
  protected leaveBacklog(needId: string) {
    const backlog = this.tables.needTermsBacklog
    return this.unread(
      this.prepared('need_terms_backlog_leave', () => this.db.delete(backlog).where(eq(backlog.needId, sql.placeholder('needId'))), {
        needId,
      }),
    )
  }

  /** Forgets the words of the needs' text (retention, erasure): nothing of it stays in the index. */
  protected async removeTextTerms(organizationId: string, needIds: readonly string[]) {
    const terms = this.tables.needTerms
    await this.unread(
      this.db.delete(terms).where(and(eq(terms.organizationId, organizationId), inArray(terms.needId, [...needIds]), ne(terms.kind, 'r'))),
    )
  }

  private async addTextTerms(needs: ReadonlyArray<Pick<Need, 'id' | 'organizationId' | 'customFields' | 'isConfidential'>>) {
    const rows = needs.flatMap((need) =>
      needTextTermsOf(need).map(({ kind, term }) => ({ organizationId: need.organizationId, term, kind, needId: need.id })),
    )
    for (const chunk of chunksOf(rows)) await this.unread(this.db.insert(this.tables.needTerms).values(chunk))
  }
}

/** How a search's matches are found (`matching`). */
type Found = 'byKey' | 'walk'
