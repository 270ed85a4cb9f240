import { and, asc, count, desc, eq, exists, gte, inArray, lt, ne, sql, type SQL } from 'drizzle-orm'
import type { NeedFilter } from '../../../application/ports/repositories/need-repository'
import { SEARCH_TOTAL_BOUND } from '../../../domain/constituents/search'
import { NEED_STATUSES, type Need } from '../../../domain/needs/need'
import { needTextTermsOf, type NeedSearch, type NeedSort } from '../../../domain/needs/search'
import { boundedTotal, countCap, offsetOf, type Page, type PageRequest } from '../../../domain/shared/page'
import { openAndDueBefore } from './sql-open-due'
import { recordsOf, type RowReader } from './row-reader'
import { INSIDE, toNeed } from './sql-need-rows'
import type { SQLiteSelect } from 'drizzle-orm/sqlite-core'
import { SqlRepository, chunksOf } from './sql-repository'

/**
 * What the need repository shares with its search (docs/api/needs.md "Search and sort"): a filter as SQL, a
 * sort's order, and the words of need_terms, written with each need. A search's matches are found from its
 * longest word's range of terms (need_terms' primary key, within the organization and the kinds the reader
 * may see), each need then checked for every word among its own terms (need_terms_by_need) and for the other
 * filters. They are counted up to a cap, as constituent search's (`countMatches`): up to it the page is read
 * by key and sorted, at most the cap's needs; past it, in an order an index keeps, the page is read by
 * walking the organization's needs in that order, each tested for the words, so a common word is found in a
 * few rows a match, whatever the size of the organization.
 */
export abstract class SqlNeedSearch extends SqlRepository {
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
      // The condition of the index needs_needing_attention.
      filter.needsAttention ? sql`${t.needsAttention}` : undefined,
      ...(byKey ? [this.withLongestWord(filter.organizationId, filter.search!)] : []),
      ...(filter.search ? this.withEveryWord(filter.search) : []),
    )
  }

  /** The needs with a term of a readable kind that the search's longest word begins. */
  private withLongestWord(organizationId: string, search: NeedSearch): SQL {
    const terms = this.tables.needTerms
    return inArray(
      this.tables.needs.id,
      this.db.select({ id: terms.needId }).from(terms).where(this.longestWordTerms(organizationId, search)),
    )
  }

  /** The terms of a readable kind that the search's longest word begins: a range of the organization's (the primary key). */
  private longestWordTerms(organizationId: string, search: NeedSearch): SQL {
    const terms = this.tables.needTerms
    const word = search.words.reduce((longest, w) => (w.length > longest.length ? w : longest))
    return and(eq(terms.organizationId, organizationId), this.begunBy(word), inArray(terms.kind, search.kinds))!
  }

  /** Each word of the search begins a term of a readable kind among the need's own. */
  private withEveryWord(search: NeedSearch): SQL[] {
    const terms = this.tables.needTerms
    return search.words.map((word) =>
      exists(
        this.db
          .select({ one: sql`1` })
          .from(terms)
          .where(and(eq(terms.needId, this.tables.needs.id), this.begunBy(word), inArray(terms.kind, search.kinds))),
      ),
    )
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
    const terms = this.tables.needTerms
    const longest = this.db.select({ one: sql`1` }).from(terms).where(this.longestWordTerms(organizationId, filter.search!))
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

/** The first text after every text that begins with `prefix`: its last character's successor (byte order, as the keys are compared). */
function prefixEnd(prefix: string): string {
  const chars = [...prefix]
  const last = chars.pop()!.codePointAt(0)!
  const next = last === 0xd7ff ? 0xe000 : last + 1
  return chars.join('') + String.fromCodePoint(next)
}
