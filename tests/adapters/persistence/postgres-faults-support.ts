import postgres from 'postgres'
import type { PostgresDatabase } from '../../../src/adapters/persistence/postgres/postgres-database'
import { aNewNeed } from '../../support/builders'
import { realTimer } from './postgres-support'

// What the fault tests of PostgreSQL (postgres-failover.test.ts) share: clients creating needs as requests
// would, each unit timed, and counts read on a server directly.

export interface LoadOutcome {
  /** Units that committed and said so. */
  acknowledged: number
  failures: unknown[]
  slowestMs: number
  /** Units still waiting when the load was stopped and given `graceMs` to finish. */
  unanswered: number
}

/**
 * `clients` loops, each creating a need in a unit of work (its partner read first, as a create does) or, with
 * `readOnly`, reading the partner outside one, until stopped.
 */
export function creatingNeeds(
  database: PostgresDatabase,
  organizationId: string,
  partnerId: string,
  clients: number,
  { readOnly = false }: { readOnly?: boolean } = {},
) {
  const outcome: LoadOutcome = { acknowledged: 0, failures: [], slowestMs: 0, unanswered: 0 }
  let stopping = false
  let waiting = 0
  const once = () =>
    readOnly
      ? database.repositories.partners.findById(organizationId, partnerId)
      : database.unitOfWork.run(async (r) => {
          await r.partners.findById(organizationId, partnerId)
          const { referenceNumbers } = await r.needs.insertMany([aNewNeed({ organizationId, partnerId })])
          return referenceNumbers
        })
  const loops = Array.from({ length: clients }, async () => {
    while (!stopping) {
      const started = performance.now()
      waiting++
      await once().then(
        () => outcome.acknowledged++,
        (error: unknown) => outcome.failures.push(error),
      )
      waiting--
      outcome.slowestMs = Math.max(outcome.slowestMs, performance.now() - started)
      await realTimer(20)
    }
  })
  return {
    /** Whether a unit commits within `withinMs` from now. */
    async resumes(withinMs: number): Promise<boolean> {
      const from = outcome.acknowledged
      const until = Date.now() + withinMs
      while (outcome.acknowledged === from && Date.now() < until) await realTimer(50)
      return outcome.acknowledged > from
    },
    /** Stops the loops and waits at most `graceMs` for the units in flight. */
    async stop(graceMs: number): Promise<LoadOutcome> {
      stopping = true
      await Promise.race([Promise.all(loops), realTimer(graceMs)])
      return { ...outcome, unanswered: waiting }
    },
  }
}

/** Creates needs until one commits, for `withinMs` at most: the id of the one made, or undefined. */
export async function untilWrites(database: PostgresDatabase, organizationId: string, partnerId: string, withinMs: number) {
  const until = Date.now() + withinMs
  while (Date.now() < until) {
    const need = aNewNeed({ organizationId, partnerId })
    const made = await database.unitOfWork
      .run((r) => r.needs.insertMany([need]))
      .then(
        () => true,
        () => false,
      )
    if (made) return need.id
    await realTimer(100)
  }
  return undefined
}

/** How many needs the server at `url` holds. */
export async function needsOn(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    const [row] = await sql<Array<{ n: number }>>`SELECT count(*)::int AS n FROM needs`
    return row!.n
  } finally {
    await sql.end()
  }
}
