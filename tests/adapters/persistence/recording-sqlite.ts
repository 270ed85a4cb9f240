import { Database } from 'bun:sqlite'
import { afterAll, beforeAll } from 'bun:test'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import * as schema from '../../../src/adapters/persistence/sqlite/schema'
import { sqliteRepositories } from '../../../src/adapters/persistence/sqlite/sqlite-repositories'
import type { Repositories } from '../../../src/application/ports/repositories'
import { makeSqlite, type SqliteFixture } from './sqlite-fixture'

export interface Recorded {
  sql: string
  params: unknown[]
  rows: number
}

/**
 * The SQLite repositories over a read-only connection of `path` whose statements are recorded with the rows
 * each one answered: the adapter's own SQL, not a copy of it.
 */
export function recordingRepositories(path: string) {
  const connection = new Database(path, { readonly: true, strict: true })
  connection.exec('PRAGMA busy_timeout = 5000')
  const recorded: Recorded[] = []
  const prepare = connection.prepare.bind(connection)
  connection.prepare = ((sql: string) => {
    const statement = prepare(sql) as unknown as Record<'all' | 'values' | 'get', (...params: unknown[]) => unknown>
    for (const method of ['all', 'values', 'get'] as const) {
      const run = statement[method].bind(statement)
      statement[method] = (...params: unknown[]) => {
        const result = run(...params)
        recorded.push({ sql, params, rows: Array.isArray(result) ? result.length : result == null ? 0 : 1 })
        return result
      }
    }
    return statement
  }) as typeof connection.prepare
  return {
    repositories: sqliteRepositories(drizzle({ client: connection, schema })),
    /** Runs `work` and answers what it answered with the statements it ran. */
    async measure<T>(work: (r: Repositories) => Promise<T>): Promise<{ result: T; statements: Recorded[] }> {
      recorded.length = 0
      const result = await work(this.repositories)
      return { result, statements: [...recorded] }
    },
    close: () => connection.close(),
  }
}

/** The detail lines of EXPLAIN QUERY PLAN for a recorded statement, on `planner` (a connection of the same file). */
export function planOf(planner: Database, statement: Recorded): string[] {
  return planner
    .query(`EXPLAIN QUERY PLAN ${statement.sql}`)
    .all(...(statement.params as never[]))
    .map((row) => (row as { detail: string }).detail)
}

/** What a plan test reads: the recording repositories, a planner on the same file, and what `fill` answered. */
export interface Planning<T> {
  recording: ReturnType<typeof recordingRepositories>
  planner: Database
  filled: T
}

/**
 * A migrated SQLite database that `fill` writes before the file's tests, read through read-only connections
 * (`recordingRepositories`, and a planner for `planOf`), removed after them.
 */
export function planningSqlite<T>(fill: (r: Repositories) => Promise<T>): Planning<T> {
  let sqlite: SqliteFixture | undefined
  const planning = {} as Planning<T>
  beforeAll(async () => {
    sqlite = await makeSqlite()
    planning.filled = await sqlite.persistence.unitOfWork.run(fill)
    planning.recording = recordingRepositories(sqlite.path)
    planning.planner = new Database(sqlite.path, { readonly: true })
  })
  afterAll(async () => {
    planning.planner?.close()
    planning.recording?.close()
    await sqlite?.cleanup()
  })
  return planning
}
