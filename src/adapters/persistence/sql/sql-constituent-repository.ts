import { and, desc, eq, gte, inArray, isNull, lt, ne, notExists, sql } from 'drizzle-orm'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { ConstituentRepository } from '../../../application/ports/repositories/constituent-repository'
import type { Constituent, Household } from '../../../domain/constituents/constituent'
import { CONTACT_FIELDS } from '../../../domain/constituents/contact'
import { matchKeysOf, type MatchKeys } from '../../../domain/constituents/matching'
import { SEARCH_TOTAL_BOUND, type ConstituentQuery } from '../../../domain/constituents/search'
import { newestFirst, type Keyset, type Page, type PageRequest } from '../../../domain/shared/page'
import { phoneTermsColumn, searchTermsColumn, type ConstituentRow } from './constituent-search'
import { SqlRepository, nullable, present } from './sql-repository'

/** The row as the domain wrote it: a field with a list of values holds one of them, checked before the write. */
function toConstituent(row: ConstituentRow): Constituent {
  const { seq: _seq, emailKey: _e, nameBirthKey: _n, lastStreetKey: _l, searchTerms: _s, phoneTerms: _p, ...rest } = present(row)
  return rest as Constituent
}

function constituentRow(c: Constituent) {
  const keys = matchKeysOf(c)
  return {
    ...Object.fromEntries(CONTACT_FIELDS.map((field) => [field, nullable(c[field])])),
    id: c.id,
    organizationId: c.organizationId,
    householdId: c.householdId,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    erasedAt: nullable(c.erasedAt),
    emailKey: nullable(keys.email),
    nameBirthKey: nullable(keys.nameAndBirth),
    lastStreetKey: nullable(keys.lastNameAndStreet),
    searchTerms: searchTermsColumn(c),
    phoneTerms: phoneTermsColumn(c),
  }
}

/** No record's id is empty: an exclusion that excludes none. */
const EXCLUDES_NONE = ''

export class SqlConstituentRepository extends SqlRepository implements ConstituentRepository {
  /** Search is read through each database's own index: its dialect's ConstituentSearch. */
  private readonly searching = new this.dialect.ConstituentSearch(this.db, this.dialect, this.statements)
  async insert(c: Constituent) {
    // A new person is never erased: the column is left to its default.
    await this.preparedInsert('constituent_insert', this.tables.constituents, constituentRow(c), ['seq', 'erasedAt'])
  }
  async insertMany(constituents: readonly Constituent[]) {
    // A new person is never erased: the column is left to its default.
    await this.insertRows('constituent_insert', this.tables.constituents, constituents.map(constituentRow), ['seq', 'erasedAt'])
  }
  async update(c: Constituent) {
    await this.updateInOrganization(this.tables.constituents, constituentRow(c))
  }
  async delete(organizationId: string, id: string) {
    await this.db
      .delete(this.tables.constituents)
      .where(and(eq(this.tables.constituents.id, id), eq(this.tables.constituents.organizationId, organizationId)))
  }
  async findById(organizationId: string, id: string) {
    const row = await this.findInOrganization(this.tables.constituents, organizationId, id)
    return row ? toConstituent(row) : undefined
  }
  async findByIds(organizationId: string, ids: readonly string[]) {
    if (ids.length === 0) return []
    const rows = await this.db
      .select()
      .from(this.tables.constituents)
      .where(and(eq(this.tables.constituents.organizationId, organizationId), inArray(this.tables.constituents.id, [...ids])))
    return rows.map(toConstituent)
  }
  async findByMatchKeys(organizationId: string, keys: MatchKeys, excludeId: string, limitPerKey: number) {
    const t = this.tables.constituents
    const lookups: Array<[string, SQLiteColumn, string | undefined]> = [
      ['phone', t.phone, keys.phone],
      ['email', t.emailKey, keys.email],
      ['name_birth', t.nameBirthKey, keys.nameAndBirth],
      ['last_street', t.lastStreetKey, keys.lastNameAndStreet],
    ]
    const found = new Map<string, Constituent>()
    for (const [key, column, value] of lookups) {
      if (value === undefined) continue
      // One indexed equality per key, bounded: the cost does not grow with the organization.
      const rows = await this.prepared<typeof t.$inferSelect>(
        `constituents_by_${key}`,
        () =>
          this.db
            .select()
            .from(t)
            .where(
              and(
                eq(t.organizationId, sql.placeholder('organizationId')),
                eq(column, sql.placeholder('value')),
                ne(t.id, sql.placeholder('excludeId')),
              ),
            )
            .limit(sql.placeholder('limit')),
        { organizationId, value, excludeId, limit: limitPerKey },
      )
      for (const row of rows) found.set(row.id, toConstituent(row))
    }
    return [...found.values()]
  }
  async findSharingKeys(organizationId: string, keys: readonly MatchKeys[], limitPerKey: number) {
    // One person's keys (an intake's) by the prepared lookups, the same bounded equality per key.
    if (keys.length === 1) return this.findByMatchKeys(organizationId, keys[0]!, EXCLUDES_NONE, limitPerKey)
    const t = this.tables.constituents
    const lookups: Array<[SQLiteColumn, keyof MatchKeys]> = [
      [t.phone, 'phone'],
      [t.emailKey, 'email'],
      [t.nameBirthKey, 'nameAndBirth'],
      [t.lastStreetKey, 'lastNameAndStreet'],
    ]
    const found = new Map<string, Constituent>()
    for (const [column, key] of lookups) {
      const values = [...new Set(keys.flatMap((k) => (k[key] === undefined ? [] : [k[key]])))]
      if (values.length === 0) continue
      // One indexed IN lookup per kind of key, bounded.
      const rows = await this.db
        .select()
        .from(t)
        .where(and(eq(t.organizationId, organizationId), inArray(column, values)))
        .limit(limitPerKey)
      for (const row of rows) found.set(row.id, toConstituent(row))
    }
    return [...found.values()]
  }
  async search(
    organizationId: string,
    query: ConstituentQuery,
    page: PageRequest,
    countUpTo = SEARCH_TOTAL_BOUND,
  ): Promise<Page<Constituent>> {
    const { rows, ...total } = await this.searching.page(organizationId, query, page, countUpTo)
    return { items: rows.map(toConstituent), ...total }
  }
  async searchAfter(organizationId: string, query: ConstituentQuery, after: Keyset | undefined, limit: number) {
    return (await this.searching.batchAfter(organizationId, query, after, limit)).map(toConstituent)
  }
  async listByHousehold(organizationId: string, householdId: string) {
    // Sorted here: ordered in SQL, the planner walked the organization's constituents in list order
    // (constituents_newest) to find the household's few, 100 ms at 100,000 constituents.
    const rows = await this.db
      .select()
      .from(this.tables.constituents)
      .where(and(eq(this.tables.constituents.organizationId, organizationId), eq(this.tables.constituents.householdId, householdId)))
    return rows.sort((a, b) => -newestFirst(a, b)).map(toConstituent)
  }
  async findByPhone(organizationId: string, phone: string) {
    const rows = await this.db
      .select()
      .from(this.tables.constituents)
      .where(and(eq(this.tables.constituents.organizationId, organizationId), eq(this.tables.constituents.phone, phone)))
      .orderBy(desc(this.tables.constituents.createdAt), desc(this.tables.constituents.id))
      .limit(50)
    return rows.map(toConstituent)
  }
  async idleSince(organizationId: string, before: Date, limit: number) {
    const c = this.tables.constituents
    const n = this.tables.needs
    // constituents_idle finds the candidates; each one's needs are looked at through needs_by_constituent.
    const recentNeed = this.db
      .select({ id: n.id })
      .from(n)
      .where(and(eq(n.organizationId, organizationId), eq(n.constituentId, c.id), gte(n.updatedAt, before)))
    const rows = await this.db
      .select()
      .from(c)
      .where(and(eq(c.organizationId, organizationId), isNull(c.erasedAt), lt(c.updatedAt, before), notExists(recentNeed)))
      .limit(limit)
    return rows.map(toConstituent)
  }
  async insertHousehold(h: Household) {
    await this.preparedInsert('household_insert', this.tables.households, { ...h })
  }
  async insertHouseholds(households: readonly Household[]) {
    await this.insertRows(
      'household_insert',
      this.tables.households,
      households.map((h) => ({ ...h })),
    )
  }
  async deleteHouseholdIfUnused(organizationId: string, householdId: string) {
    const used = and(eq(this.tables.households.organizationId, organizationId), eq(this.tables.households.id, householdId))
    const members = await this.db
      .select({ id: this.tables.constituents.id })
      .from(this.tables.constituents)
      .where(and(eq(this.tables.constituents.organizationId, organizationId), eq(this.tables.constituents.householdId, householdId)))
      .limit(1)
    const needs = await this.db
      .select({ id: this.tables.needs.id })
      .from(this.tables.needs)
      .where(and(eq(this.tables.needs.organizationId, organizationId), eq(this.tables.needs.householdId, householdId)))
      .limit(1)
    if (members.length > 0 || needs.length > 0) return false
    const deleted = await this.db.delete(this.tables.households).where(used).returning({ id: this.tables.households.id })
    return deleted.length > 0
  }
  async householdExists(organizationId: string, householdId: string) {
    const rows = await this.db
      .select({ id: this.tables.households.id })
      .from(this.tables.households)
      .where(and(eq(this.tables.households.organizationId, organizationId), eq(this.tables.households.id, householdId)))
      .limit(1)
    return rows.length > 0
  }
}
