import type { RowReader } from './row-reader'
import type { SqlDb } from './sql-repository'

/** A query built once with `sql.placeholder`s, run with new values each time. */
export interface PreparedStatement {
  execute(values: Record<string, unknown>): unknown
}

/** Ties a statement to the connection or transaction `db` runs on; SQLite's are tied to their connection already. */
export type BindStatement = (statement: PreparedStatement, db: SqlDb) => PreparedStatement

/**
 * The statements of one database, by name, built on first use and kept for the life of the process.
 * Building a query with the query builder costs several times more than reading a row, so the lookups made
 * on every request (who is calling, which need) are built once, not once per transaction.
 */
export class PreparedStatements {
  private readonly byName = new Map<string, PreparedStatement>()

  constructor(private readonly bind: BindStatement = (statement) => statement) {}

  /** `read`, when given, reads the statement's rows in place of drizzle's mapping (row-reader.ts). */
  async run<Row>(name: string, build: () => unknown, values: Record<string, unknown>, db: SqlDb, read?: RowReader<Row>): Promise<Row[]> {
    let statement = this.byName.get(name)
    if (!statement) {
      statement = (build() as { prepare(name: string): PreparedStatement }).prepare(name)
      if (read) readRowsWith(statement, read)
      this.byName.set(name, statement)
    }
    return (await this.bind(statement, db).execute(values)) as Row[]
  }
}

/**
 * Both drivers' prepared queries hand their rows, as arrays, to a `customResultMapper` when they have one
 * (drizzle's relational queries set it) instead of mapping them column by column: a private field of
 * theirs, checked here so an upgrade that drops it fails at once instead of answering drizzle's rows.
 */
function readRowsWith(statement: PreparedStatement, read: RowReader<unknown>) {
  if (!('customResultMapper' in statement))
    throw new Error('drizzle-orm changed its prepared query: it has no customResultMapper to read rows with')
  Object.assign(statement, { customResultMapper: read })
}
