import { afterAll, beforeAll } from 'bun:test'
import { PostgresDatabase } from '../../../src/adapters/persistence/postgres/postgres-database'
import type { Repositories } from '../../../src/application/ports/repositories'
import { makePostgres, type PostgresFixture } from './postgres-fixture'

// What the tests of what only PostgreSQL has (postgres-*.test.ts) share: a database of their own with a
// second instance on it, and ways to hold a transaction open and to see whether another waits for it.
// Each file calls `openTwoInstances()` in its describe; its tests reach the two through `db` and `other`.

/** A promise and the function that resolves it: lets a test hold a transaction open. */
export function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { open, opened }
}

export const realTimer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** 'settled' when the promise settles within `ms`, 'waiting' otherwise (it keeps running). */
export function within(promise: Promise<unknown>, ms: number): Promise<'settled' | 'waiting'> {
  const settled = promise.then(
    () => 'settled' as const,
    () => 'settled' as const,
  )
  return Promise.race([settled, realTimer(ms).then(() => 'waiting' as const)])
}

/** The database of the describe that called `openTwoInstances`, migrated, of its own. */
export let db: PostgresFixture
/** A second instance on the same database: another process of the service. */
export let other: PostgresDatabase

/** Before the tests of the describe it is called in: `db` and `other`; after them, both closed and the database dropped. */
export function openTwoInstances(): void {
  beforeAll(async () => {
    db = await makePostgres()
    other = new PostgresDatabase(db.url)
  })
  afterAll(async () => {
    await other?.close()
    await db?.cleanup()
  })
}

export const write = <T>(work: (r: Repositories) => Promise<T>) => db.persistence.unitOfWork.run(work)
export const read = () => db.persistence.repositories
