import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { postgresAvailable } from '../support/postgres'
import { killAllServers, ServeProcess } from './cli-process'
import { adminOf, crowd, missing, serveDatabase, Tally, type DatabaseKind, type ServeDatabase } from './workload'

// docs/reliability.md "Durability": the real `intake serve`, written to by 8 clients at once, is killed with
// SIGKILL at a random moment (after a number of acknowledged writes, not of milliseconds: a busy machine writes
// less in the same time), 10 times over. After each restart every write it answered 2xx is there, and
// a SQLite file passes `PRAGMA integrity_check`. On PostgreSQL the service dies and the database stays up.
// The moments come from a fixed seed (DURABILITY_SEED for others).
const ROUNDS = 10
const CLIENTS = 8
const SEED = Number(process.env.DURABILITY_SEED ?? 20261123)
/** How many writes are acknowledged in a round before the kill, one number per round. */
const KILL_AFTER_WRITES = fc.sample(fc.integer({ min: 2, max: 25 }), { seed: SEED, numRuns: ROUNDS })

const databases: ServeDatabase[] = []
afterAll(async () => {
  await killAllServers()
  for (const database of databases) await database.drop()
})

function integrityOf(sqlitePath: string): string {
  const db = new Database(sqlitePath)
  try {
    return db
      .query<{ integrity_check: string }, []>('PRAGMA integrity_check')
      .all()
      .map((row) => row.integrity_check)
      .join('; ')
  } finally {
    db.close()
  }
}

const acknowledgedWrites = (tally: Tally) => tally.acknowledged.needs.length + tally.acknowledged.constituents.length

/** Resolves once `writes` more writes have been acknowledged: the clients go on writing, some in flight. */
async function acknowledgedMore(tally: Tally, writes: number): Promise<void> {
  const target = acknowledgedWrites(tally) + writes
  while (acknowledgedWrites(tally) < target) await Bun.sleep(2)
}

async function killRepeatedly(kind: DatabaseKind): Promise<void> {
  const database = await serveDatabase(kind)
  databases.push(database)
  const tally = new Tally()
  let token: string | undefined
  for (const [round, killAfter] of KILL_AFTER_WRITES.entries()) {
    const serve = await ServeProcess.start(database.env)
    const { api, ...target } = await adminOf(serve, token)
    token = api.token
    expect(await missing(api, tally.acknowledged), `acknowledged writes missing after ${round} kills`).toEqual([])
    let killed = false
    const writing = crowd(api, target, { clients: CLIENTS, tally, stop: () => killed })
    await Promise.race([acknowledgedMore(tally, killAfter), serve.exited])
    serve.kill('SIGKILL')
    killed = true
    await Promise.all([writing, serve.exited])
    if (database.sqlitePath) expect(integrityOf(database.sqlitePath)).toBe('ok')
  }
  const serve = await ServeProcess.start(database.env)
  const { api } = await adminOf(serve, token)
  expect(await missing(api, tally.acknowledged)).toEqual([])
  expect(acknowledgedWrites(tally)).toBeGreaterThanOrEqual(KILL_AFTER_WRITES.reduce((a, b) => a + b))
  // Requests in flight at a kill get no answer; every answer the service gave was a success.
  expect(tally.unexpected(['network'])).toEqual({})
  console.log(
    `durability on ${kind}: ${ROUNDS} SIGKILLs, ${tally.acknowledged.needs.length + tally.acknowledged.constituents.length} acknowledged writes, none lost`,
  )
  await serve.stop('SIGTERM')
}

describe('durability', () => {
  test(
    'SQLite: 10 SIGKILLs while clients write lose no acknowledged write and leave the file intact',
    () => killRepeatedly('sqlite'),
    120_000,
  )

  test.skipIf(!postgresAvailable())(
    'PostgreSQL: 10 SIGKILLs of the service while clients write lose no acknowledged write',
    () => killRepeatedly('postgres'),
    120_000,
  )
})
