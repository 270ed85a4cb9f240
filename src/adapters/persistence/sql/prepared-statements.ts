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

  async run<Row>(name: string, build: () => unknown, values: Record<string, unknown>, db: SqlDb): Promise<Row[]> {
    let statement = this.byName.get(name)
    if (!statement) {
      statement = (build() as { prepare(name: string): PreparedStatement }).prepare(name)
      this.byName.set(name, statement)
    }
    return (await this.bind(statement, db).execute(values)) as Row[]
  }
}
