import { and, eq, getTableColumns, getTableName, lt, lte, or, sql, type SQL } from 'drizzle-orm'
import type { BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite'
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core'
import { UNIQUE_CONFLICTS } from '../../../application/ports/repositories'
import { ConflictError } from '../../../domain/errors'
import type { Keyset } from '../../../domain/shared/page'
import type * as schema from '../sqlite/schema'
import type { PreparedStatements } from './prepared-statements'
import { recordsOf, type RecordOf, type RowReader } from './row-reader'
import type { SqlDialect } from './sql-dialect'
import { AWAITED_WRITES, type UnreadWrites } from './unread-writes'

/**
 * The database the repositories are written against. Drizzle's query builder is the same for SQLite and
 * PostgreSQL at run time; SQLite's types are the ones checked, and PostgreSQL's tables (src/adapters/persistence/postgres/schema.ts)
 * have the same names, columns and JS types. What really differs between the two lives in a SqlDialect.
 */
export type SqlDb = BunSQLiteDatabase<typeof schema>

/** A row without its NULL columns: absent optional fields are omitted, not null (docs/api/conventions.md "Errors"). */
export type Present<T> = { [K in keyof T]: Exclude<T[K], null> }

/** Drops null columns (`Present`). */
export function present<T extends Record<string, unknown>>(row: T): Present<T> {
  // A plain loop: every row read goes through here, and entries/filter/fromEntries cost several times more.
  const kept: Record<string, unknown> = {}
  for (const key in row) if (row[key] !== null) kept[key] = row[key]
  return kept as never
}

/** Optional fields written as NULL so an update can clear them. */
export function nullable<T>(value: T | undefined): T | null {
  return value ?? null
}

/**
 * The rows after `after` in list order (newest `created_at` first, `id` as tie-break), as an export walks a
 * list: `created_at <= ?` is a range of the list's index, so each batch starts where the last one ended
 * however deep into the table; the second term steps over the rows of the same time already read.
 */
export function afterKeyset(table: { createdAt: SQLiteColumn; id: SQLiteColumn }, after: Keyset | undefined): SQL | undefined {
  if (!after) return undefined
  return and(lte(table.createdAt, after.createdAt), or(lt(table.createdAt, after.createdAt), lt(table.id, after.id)))
}

/** A table whose rows belong to one organization each, found by id within it. */
type OrganizationTable = SQLiteTable & { id: SQLiteColumn; organizationId: SQLiteColumn }

/** Runs a statement built once by `build` with new `values` (`SqlRepository.prepared`). */
export type RunPrepared = <Row>(name: string, build: () => unknown, values: Record<string, unknown>) => Promise<Row[]>

/**
 * What every repository shares: the database (or transaction), the dialect's tables and ways, the
 * database's prepared statements, which outlive the repositories of one transaction, and where the
 * transaction's writes whose results nobody reads go.
 */
export abstract class SqlRepository {
  constructor(
    protected readonly db: SqlDb,
    protected readonly dialect: SqlDialect,
    protected readonly statements: PreparedStatements,
    private readonly writes: UnreadWrites = AWAITED_WRITES,
  ) {}
  protected get tables() {
    return this.dialect.tables
  }
  /**
   * A query built once (on first use) and run with new `values` (`sql.placeholder`) on this repository's db.
   * Lookups by a unique key carry no `.limit(1)`: drizzle binds the limit as a parameter, and on SQLite a
   * bound LIMIT costs more than the lookup itself (15 µs against 5).
   */
  protected prepared<Row>(name: string, build: () => unknown, values: Record<string, unknown>, read?: RowReader<Row>): Promise<Row[]> {
    return this.statements.run<Row>(name, build, values, this.db, read)
  }
  /** `prepared` as a function, for the statements helpers shared by repositories run (sql-open-due.ts). */
  protected readonly runPrepared: RunPrepared = (name, build, values) => this.prepared(name, build, values)
  /**
   * Inserts a whole row (every column of `table` but `omit`) through a prepared statement. A column's encoder
   * (a date, JSON) cannot take a NULL given as a value, so NULLs are written into the statement: one
   * statement per set of NULL columns, a handful in practice.
   */
  protected async preparedInsert<Row = unknown>(
    name: string,
    table: SQLiteTable,
    row: Record<string, unknown>,
    omit: readonly string[] = [],
    returning?: Record<string, SQLiteColumn>,
  ): Promise<Row[]> {
    return this.preparedInsertAll<Row>(name, table, [row], omit, returning)
  }
  /**
   * Inserts whole rows, as `preparedInsert` does one, in one prepared statement: one per count of rows and
   * their sets of NULL columns. For the few rows of one write (a new person's household matches), not an
   * import's batches, whose counts vary without bound.
   */
  protected async preparedInsertAll<Row = unknown>(
    name: string,
    table: SQLiteTable,
    rows: ReadonlyArray<Record<string, unknown>>,
    omit: readonly string[] = [],
    returning?: Record<string, SQLiteColumn>,
  ): Promise<Row[]> {
    const columns = Object.keys(getTableColumns(table)).filter((key) => !omit.includes(key))
    const nulls = rows.map((row) => columns.reduce((mask, key, i) => (row[key] === null ? mask | (1 << i) : mask), 0))
    // One row's placeholders are its columns' names, so the row itself gives their values.
    const placeholder = rows.length === 1 ? (key: string) => key : (key: string, i: number) => `${key}${i}`
    const values = rows.map((row, i) =>
      Object.fromEntries(columns.map((key) => [key, row[key] === null ? sql`null` : sql.placeholder(placeholder(key, i))])),
    )
    const build = () => {
      const insert = this.db.insert(table).values(values)
      return returning ? insert.returning(returning) : insert
    }
    const given =
      rows.length === 1 ? rows[0]! : Object.fromEntries(rows.flatMap((row, i) => columns.map((key) => [placeholder(key, i), row[key]])))
    const shape = rows.length === 1 ? `${nulls[0]}` : `${rows.length}_${nulls.join('_')}`
    return this.prepared<Row>(`${name}_${shape}`, build, given)
  }
  /**
   * The few rows of one write (a new person's household matches, a page of people's reads in the audit trail),
   * sent on with what follows (`unread`), in prepared inserts of 16, 8, 4, 2 and 1 rows (`preparedInsertAll`),
   * each size once at most past the 16s: five statements at most up to 31 rows, and five shapes, each prepared
   * once on a connection (one shape per count would ask PostgreSQL for its parameters' types at each new count).
   */
  protected async insertPreparedRows(name: string, table: SQLiteTable, rows: ReadonlyArray<Record<string, unknown>>) {
    let rest = rows
    while (rest.length > 0) {
      const size = rest.length >= 16 ? 16 : 2 ** Math.floor(Math.log2(rest.length))
      await this.unread(this.preparedInsertAll(name, table, rest.slice(0, size)))
      rest = rest.slice(size)
    }
  }
  /** The organization's record of `table` with this id (`recordsOf`: its NULLs left out), by a prepared lookup (one per table). */
  protected async findInOrganization<T extends OrganizationTable>(
    table: T,
    organizationId: string,
    id: string,
  ): Promise<RecordOf<T> | undefined> {
    const [row] = await this.prepared(
      `${getTableName(table)}_by_id`,
      () =>
        this.db
          .select()
          .from(table as SQLiteTable)
          .where(and(eq(table.organizationId, sql.placeholder('organizationId')), eq(table.id, sql.placeholder('id')))),
      { organizationId, id },
      recordsOf(table),
    )
    return row
  }
  /**
   * Writes `row` over the organization's row with its id: every column it gives (one left undefined stays as
   * it is) but the keys and those in `unchanged` (the creation time, and whatever else is set once). A
   * prepared statement per table and set of columns given and NULL (NULLs written into it, as
   * `preparedInsert` does): on PostgreSQL it goes out with the statements around it, where an unprepared one
   * asks the server for its parameters' types first. The caller awaits it, or hands it to `unread`.
   */
  protected updateInOrganization<T extends OrganizationTable>(
    table: T,
    row: { id: string; organizationId: string } & Record<string, unknown>,
    unchanged: readonly string[] = ['createdAt'],
  ): Promise<unknown[]> {
    const skipped = ['id', 'organizationId', ...unchanged]
    const columns = Object.keys(getTableColumns(table)).filter((key) => !skipped.includes(key) && row[key] !== undefined)
    const nulls = columns.map((key) => (row[key] === null ? 'n' : 'v')).join('')
    const set = Object.fromEntries(columns.map((key) => [key, row[key] === null ? sql`null` : sql.placeholder(key)]))
    const build = () =>
      this.db
        .update(table as SQLiteTable)
        .set(set)
        .where(and(eq(table.id, sql.placeholder('id')), eq(table.organizationId, sql.placeholder('organizationId'))))
    return this.prepared(`${getTableName(table)}_update_${columns.join(',')}_${nulls}`, build, row)
  }
  /**
   * Rows of `table`, in order: one (a creation's) by the prepared insert (`preparedInsert`), sent on with what
   * follows (`unread`), as building an insert costs more than running it; many (an import's batch) in
   * multi-row inserts.
   */
  protected async insertRows<T extends SQLiteTable>(
    name: string,
    table: T,
    rows: ReadonlyArray<T['$inferInsert']>,
    omit: readonly string[] = [],
  ) {
    if (rows.length === 1) return this.unread(this.preparedInsert(name, table, rows[0]!, omit))
    for (const chunk of chunksOf(rows)) await this.db.insert(table).values(chunk)
  }
  /**
   * A write whose result nobody reads, already started (one statement, so that nothing issued after it
   * overtakes it): settled now or with its transaction (`UnreadWrites`). Its failure, as `write` reports it,
   * is still the unit of work's.
   */
  protected unread(write: PromiseLike<unknown>): Promise<void> {
    return this.writes.send(write)
  }
  /**
   * As `unread`, for a write whose result is wanted later, not now (a new need's reference number): sent on
   * with what follows, and `later` (`read` of its result) awaited only where it is needed. Its failure is the
   * unit of work's all the same; `later` fails with it, never left unhandled when nobody awaits it.
   */
  protected async readLater<T, R>(write: Promise<T>, read: (result: T) => R): Promise<{ later: Promise<R> }> {
    const later = write.then(read)
    later.catch(() => {})
    await this.unread(write)
    return { later }
  }
  /** A unique index turned down the write: the caller's 409, with what was taken. */
  protected async conflictOnUnique<T>(write: PromiseLike<T>): Promise<T> {
    try {
      return await write
    } catch (error) {
      const index = this.dialect.uniqueViolation(error)
      if (index === undefined) throw error
      throw new ConflictError(UNIQUE_MESSAGES[index] ?? 'This conflicts with an existing record')
    }
  }
}

/** The primary key of idempotency keys as SQLite names it (its columns but the organization); PostgreSQL's is mapped to it. */
export const IDEMPOTENCY_KEY_INDEX = 'idempotency_keys.caller, idempotency_keys.operation, idempotency_keys.key_hash'

/** The 409 for each unique index, by the `table.column` it covers. */
const UNIQUE_MESSAGES: Record<string, string> = {
  'organizations.slug': UNIQUE_CONFLICTS.organizationSlug,
  'organization_slugs.slug': UNIQUE_CONFLICTS.organizationSlug,
  'organizations.short_code': UNIQUE_CONFLICTS.organizationShortCode,
  'organizations.phone_number': UNIQUE_CONFLICTS.organizationPhoneNumber,
  'members.email': UNIQUE_CONFLICTS.memberEmail,
  'interactions.provider_message_id': UNIQUE_CONFLICTS.providerMessageId,
  [IDEMPOTENCY_KEY_INDEX]: UNIQUE_CONFLICTS.idempotencyKey,
  'saved_views.member_id, saved_views.name': UNIQUE_CONFLICTS.savedViewName,
}

/** Rows per multi-row insert: far under both databases' limits on a statement's parameters. */
const ROWS_PER_INSERT = 500

/** `rows` in pieces of at most ROWS_PER_INSERT, for multi-row inserts. */
export function chunksOf<T>(rows: readonly T[]): T[][] {
  const chunks: T[][] = []
  for (let at = 0; at < rows.length; at += ROWS_PER_INSERT) chunks.push(rows.slice(at, at + ROWS_PER_INSERT))
  return chunks
}
