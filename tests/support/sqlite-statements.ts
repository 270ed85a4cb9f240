import { Database, type Statement } from 'bun:sqlite'

// What SQL a stretch of a test makes the in-process server run on SQLite: every statement of every connection opened after
// `recordSqliteStatements` is wrapped, so one prepared early (a repository's prepared lookups) is seen when it runs too.

const RUNS = ['all', 'get', 'values', 'run', 'iterate'] as const
let recorded: string[] | undefined

/** Installs the recorder; call before the server starts. Answers `during`, which collects what `work` runs. */
export function recordSqliteStatements() {
  for (const make of ['prepare', 'query'] as const) {
    const original = Database.prototype[make] as (this: Database, sql: string, ...rest: unknown[]) => Statement
    ;(Database.prototype as unknown as Record<string, unknown>)[make] = function (this: Database, sql: string, ...rest: unknown[]) {
      const statement = original.call(this, sql, ...rest) as unknown as Record<string, (...args: unknown[]) => unknown>
      for (const run of RUNS) {
        const method = statement[run]
        if (typeof method !== 'function' || (method as { recorded?: true }).recorded) continue
        const wrapped = (...args: unknown[]) => {
          recorded?.push(sql)
          return method.apply(statement, args)
        }
        statement[run] = Object.assign(wrapped, { recorded: true as const })
      }
      return statement
    }
  }
  return async function during(work: () => Promise<unknown>): Promise<string[]> {
    recorded = []
    try {
      await work()
      return recorded
    } finally {
      recorded = undefined
    }
  }
}
