import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import postgres from 'postgres'
import { PostgresDatabase } from '../../../src/adapters/persistence/postgres/postgres-database'
import type { Organization } from '../../../src/domain/organizations/organization'
import type { Partner } from '../../../src/domain/partners/partner'
import { anOrganization, aNewNeed, aPartner } from '../../support/builders'
import { databaseProxy, type DatabaseProxy } from '../../support/database-proxy'
import { postgresAvailable } from '../../support/postgres'
import { ThrowawayCluster } from '../../support/throwaway-cluster'
import { realTimer } from './postgres-support'
import { creatingNeeds, type LoadOutcome, needsOn, untilWrites } from './postgres-faults-support'

// What a managed or replicated PostgreSQL does every month, met by one instance through a proxy that can
// point elsewhere and hold its traffic: a failover to a hot standby and back, a half-open partition. Every
// unit of work is answered by its deadline (DATABASE_QUERY_TIMEOUT_MS) with an outage the HTTP layer answers
// 503, nothing acknowledged is lost, and writes resume once a primary answers. A cluster of the file's own
// (the shared one cannot be failed over) and a standby of it.

// Short, for the test's time, but not so short that a machine running two suites misses it on every unit.
const DEADLINE_MS = 3000
/** What an answer may take past the deadline on a busy machine: timers, a connection being given up. */
const MARGIN_MS = 3000

if (postgresAvailable())
  describe('PostgreSQL: failover and partitions', () => {
    let primary: ThrowawayCluster
    let standby: ThrowawayCluster
    let organization: Organization
    let partner: Partner
    beforeAll(async () => {
      primary = await ThrowawayCluster.start()
      const setup = new PostgresDatabase(primary.url)
      await setup.migrate()
      organization = anOrganization()
      partner = aPartner({ organizationId: organization.id })
      await setup.unitOfWork.run(async (r) => {
        await r.organizations.insert(organization)
        await r.partners.insert(partner)
      })
      await setup.close()
      standby = await primary.standby()
    }, 60_000)
    afterAll(async () => {
      await standby?.remove()
      await primary?.remove()
    })

    /** The service's database through a proxy of its own, closed after `use`. */
    async function throughProxy(use: (database: PostgresDatabase, proxy: DatabaseProxy) => Promise<void>): Promise<void> {
      const proxy = await databaseProxy(primary.url)
      const database = new PostgresDatabase(proxy.url, { maxConnections: 4, queryTimeoutMs: DEADLINE_MS })
      try {
        await use(database, proxy)
      } finally {
        await database.close()
        await proxy.close()
      }
    }

    test('switched to a standby and back under load: every unit answers by its deadline (503s while on the standby, readiness down), none hangs, and writes resume on the primary', async () => {
      await throughProxy(async (database, proxy) => {
        const before = await needsOn(primary.url)
        const load = creatingNeeds(database, organization.id, partner.id, 6)
        await realTimer(500)
        proxy.pointAt(standby.database(primary.url))
        proxy.endConnections()
        await realTimer(2000)
        expect(await database.ping().catch(() => false)).toBe(false)
        proxy.pointAt(primary.url)
        proxy.endConnections()
        expect(await load.resumes(30_000)).toBe(true)
        expect(await database.ping()).toBe(true)
        const outcome = await load.stop(DEADLINE_MS + MARGIN_MS)

        // 503s all: read_only (a standby refusing BEGIN READ WRITE) or unreachable (its connections refused).
        expectAnsweredByTheDeadline(database, outcome)
        expect(outcome.failures.length).toBeGreaterThan(0)
        expectAcknowledgedKept(database, outcome, (await needsOn(primary.url)) - before)
      })
    }, 90_000)

    test('a half-open partition: every unit and every read outside one answers by the deadline, an acknowledged need is never lost, and writes resume once it heals', async () => {
      await throughProxy(async (database, proxy) => {
        const before = await needsOn(primary.url)
        const load = creatingNeeds(database, organization.id, partner.id, 6)
        const reads = creatingNeeds(database, organization.id, partner.id, 2, { readOnly: true })
        await realTimer(500)
        proxy.partition()
        await realTimer(3 * DEADLINE_MS)
        proxy.heal()
        expect(await load.resumes(30_000)).toBe(true)
        const [written, read] = [await load.stop(DEADLINE_MS + MARGIN_MS), await reads.stop(DEADLINE_MS + MARGIN_MS)]

        for (const outcome of [written, read]) expectAnsweredByTheDeadline(database, outcome)
        expect(written.failures.length).toBeGreaterThan(0)
        expect(read.failures.map((error) => database.outageOf(error))).toContain('unreachable')
        expectAcknowledgedKept(database, written, (await needsOn(primary.url)) - before)
      })
    }, 90_000)

    test('connections reset and refused for 3 s under load: every unit answers by its deadline, none hangs, and writes resume', async () => {
      await throughProxy(async (database, proxy) => {
        const before = await needsOn(primary.url)
        const load = creatingNeeds(database, organization.id, partner.id, 6)
        await realTimer(500)
        proxy.refuse()
        await realTimer(3000)
        proxy.refuse(false)
        expect(await load.resumes(30_000)).toBe(true)
        const outcome = await load.stop(DEADLINE_MS + MARGIN_MS)

        expectAnsweredByTheDeadline(database, outcome)
        expect(outcome.failures.length).toBeGreaterThan(0)
        expectAcknowledgedKept(database, outcome, (await needsOn(primary.url)) - before)
      })
    }, 90_000)

    test('the deadline passing after COMMIT went out is in doubt, and the change may indeed have been saved', async () => {
      await throughProxy(async (database, proxy) => {
        const need = aNewNeed({ organizationId: organization.id, partnerId: partner.id })
        // From the COMMIT on (its text goes out the first time a connection sends it): what went before was
        // answered, so nothing held back by the client waits behind it.
        proxy.partitionAt(/\bcommit\b/i)
        const failure = await database.unitOfWork
          .run(async (r) => {
            await r.partners.findById(organization.id, partner.id)
            await r.needs.insertMany([need])
          })
          .catch((error: unknown) => error)
        expect(database.outageOf(failure)).toBe('in_doubt')
        proxy.heal()
        // The COMMIT held by the partition reaches the server once it heals: the change was saved after all.
        await expect(untilFound(primary.url, need.id)).resolves.toBe(true)
      })
    }, 90_000)

    test('the deadline passing before COMMIT went out changes nothing: what the unit had written is rolled back, and the server frees its locks for the other instances while the partition lasts', async () => {
      await throughProxy(async (database, proxy) => {
        const need = aNewNeed({ organizationId: organization.id, partnerId: partner.id })
        const failure = database.unitOfWork
          .run(async (r) => {
            // The insert (which holds the organization's row, for its reference number) reaches the server;
            // then nothing more passes.
            await r.needs.insertMany([need])
            await realTimer(100)
            proxy.partition()
            await r.partners.findById(organization.id, partner.id)
          })
          .catch((error: unknown) => error)
        await realTimer(200)
        // Another instance, not partitioned, creates a need in the same organization: it waits on the row the
        // abandoned transaction holds until the server ends that transaction (idle_in_transaction_session_timeout).
        const otherInstance = new PostgresDatabase(primary.url, { queryTimeoutMs: 10_000 })
        try {
          const started = performance.now()
          await otherInstance.unitOfWork.run((r) =>
            r.needs.insertMany([aNewNeed({ organizationId: organization.id, partnerId: partner.id })]),
          )
          expect(performance.now() - started).toBeLessThan(DEADLINE_MS + MARGIN_MS)
        } finally {
          await otherInstance.close()
        }
        expect(database.outageOf(await failure)).toBe('timed_out')
        proxy.heal()
        // The server ends the abandoned transaction (its connection closed, or idle_in_transaction_session_timeout).
        await untilNoTransactionOpen(primary.url)
        await expect(untilFound(primary.url, need.id, 500)).resolves.toBe(false)
      })
    }, 90_000)

    test('the client: a BEGIN refused (a standby) while statements wait behind it fails its transaction; none is left waiting', async () => {
      // Without target_session_attrs, as the service never connects: the standby answers, and refuses BEGIN READ WRITE.
      const client = postgres(standby.url, { max: 1, onnotice: () => {}, connection: { default_transaction_read_only: true } })
      try {
        // A statement prepared for the first time waits for its description: those after it queue in the transaction.
        const begun = client.begin((tx) => [tx`SELECT ${1}::int AS a`, tx`SELECT ${2}::int AS b`, tx`SELECT ${3}::int AS c`])
        const failure = await Promise.race([
          begun.then(
            () => 'committed',
            (error: { code?: string }) => error.code,
          ),
          realTimer(5000).then(() => 'waiting'),
        ])
        expect(failure).toBe('0A000')
        // The connection went back to the pool whole: it serves the next statement.
        expect([...(await client`SELECT 1 AS one`)]).toEqual([{ one: 1 }])
      } finally {
        await client.end({ timeout: 1 })
      }
    })

    test('DATABASE_URL naming a standby first and the primary with target_session_attrs=primary writes to the primary, and to the standby once the primary is gone and it is promoted', async () => {
      // A standby of its own, promoted here, and each server through a proxy: the file's primary is not stopped.
      const replica = await primary.standby()
      const [first, second] = [await databaseProxy(replica.url), await databaseProxy(primary.url)]
      const hostOf = (url: string) => new URL(url).host
      const both = `postgres://postgres@${hostOf(first.url)},${hostOf(second.url)}/postgres?target_session_attrs=primary`
      const database = new PostgresDatabase(both, { queryTimeoutMs: DEADLINE_MS })
      try {
        expect(await untilWrites(database, organization.id, partner.id, 10_000)).toBeDefined()
        second.refuse()
        await replica.promote()
        const afterPromotion = await untilWrites(database, organization.id, partner.id, 20_000)
        expect(afterPromotion).toBeDefined()
        await expect(untilFound(replica.url, afterPromotion!)).resolves.toBe(true)
        await expect(untilFound(primary.url, afterPromotion!, 0)).resolves.toBe(false)
      } finally {
        await database.close()
        second.refuse(false)
        await Promise.all([first.close(), second.close()])
        await replica.remove()
      }
    }, 60_000)
  })

/** Every unit was answered, within the deadline and a margin, and every failure is an outage (a 503). */
function expectAnsweredByTheDeadline(database: PostgresDatabase, outcome: LoadOutcome): void {
  expect(outcome.unanswered).toBe(0)
  expect(outcome.slowestMs).toBeLessThan(DEADLINE_MS + MARGIN_MS)
  expect(outcome.failures.filter((error) => database.outageOf(error) === undefined)).toEqual([])
}

/** Every acknowledged need was kept; those answered in doubt may or may not have been. */
function expectAcknowledgedKept(database: PostgresDatabase, outcome: LoadOutcome, made: number): void {
  const inDoubt = outcome.failures.filter((error) => database.outageOf(error) === 'in_doubt').length
  expect(made).toBeGreaterThanOrEqual(outcome.acknowledged)
  expect(made).toBeLessThanOrEqual(outcome.acknowledged + inDoubt)
}

/** Whether a need with this id is on the server by `withinMs`. */
async function untilFound(url: string, id: string, withinMs = 5000): Promise<boolean> {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    const until = Date.now() + withinMs
    do {
      const [row] = await sql<Array<{ n: number }>>`SELECT count(*)::int AS n FROM needs WHERE id = ${id}`
      if (row!.n > 0) return true
      await realTimer(50)
    } while (Date.now() < until)
    return false
  } finally {
    await sql.end()
  }
}

async function untilNoTransactionOpen(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    for (;;) {
      const [row] = await sql<Array<{ n: number }>>`
        SELECT count(*)::int AS n FROM pg_stat_activity WHERE state LIKE 'idle in transaction%' AND pid <> pg_backend_pid()`
      if (row!.n === 0) return
      await realTimer(50)
    }
  } finally {
    await sql.end()
  }
}
