import { and, asc, count, eq, or, sql, type SQL } from 'drizzle-orm'
import type { TaxonomyTermRepository, TermQuery } from '../../../application/ports/repositories/taxonomy-term-repository'
import type { TaxonomyTerm, TermReference } from '../../../domain/services/taxonomy'
import { offsetOf, type PageRequest } from '../../../domain/shared/page'
import type * as schema from '../sqlite/schema'
import { nullable, present, SqlRepository } from './sql-repository'

function toTerm(row: typeof schema.taxonomyTerms.$inferSelect): TaxonomyTerm {
  return present(row) as TaxonomyTerm
}

/** Rows per insert: far under both databases' limits on a statement's parameters. */
const TERMS_PER_INSERT = 200

export class SqlTaxonomyTermRepository extends SqlRepository implements TaxonomyTermRepository {
  private get terms() {
    return this.tables.taxonomyTerms
  }
  async insertMany(terms: readonly TaxonomyTerm[]) {
    for (let start = 0; start < terms.length; start += TERMS_PER_INSERT) {
      const rows = terms.slice(start, start + TERMS_PER_INSERT).map((t) => ({ ...t, description: nullable(t.description) }))
      await this.db.insert(this.terms).values(rows)
    }
  }
  async findByReferences(organizationId: string, references: readonly TermReference[]) {
    if (references.length === 0) return []
    const t = this.terms
    const named = references.map(({ vocabulary, code }) => and(eq(t.vocabulary, vocabulary), eq(t.code, code)) as SQL)
    const rows = await this.db
      .select()
      .from(t)
      .where(and(eq(t.organizationId, organizationId), or(...named)))
    return rows.map(toTerm)
  }
  async search(organizationId: string, { vocabulary, q }: TermQuery, page: PageRequest) {
    const t = this.terms
    const conditions: SQL[] = [eq(t.organizationId, organizationId)]
    if (vocabulary !== undefined) conditions.push(eq(t.vocabulary, vocabulary))
    if (q !== undefined) {
      const holding = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
      conditions.push(sql`(lower(${t.code}) like ${holding} escape '\\' or lower(${t.name}) like ${holding} escape '\\')`)
    }
    const where = and(...conditions)
    const rows = await this.db
      .select()
      .from(t)
      .where(where)
      .orderBy(asc(t.vocabulary), asc(t.code))
      .limit(page.limit)
      .offset(offsetOf(page))
    const [counted] = await this.db.select({ n: count() }).from(t).where(where)
    return { items: rows.map(toTerm), total: counted?.n ?? 0 }
  }
}
