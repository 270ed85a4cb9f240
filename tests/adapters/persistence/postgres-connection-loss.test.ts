import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import postgres from 'postgres'
import { anOrganization } from '../../support/builders'
import { postgresAvailable, TEST_POSTGRES_URL } from '../../support/postgres'
import { makePostgres, type PostgresFixture } from './postgres-fixture'

// A connection the server ends in the middle of a transaction (a restart, an administrator, a pooler):
// the transaction fails as an outage, its later statements fail too instead of reaching another session,
// and the process goes on. Unpatched, the `postgres` client wrote those statements to the closed socket
// from a timer and threw where no caller could catch it (patches/postgres+3.4.9.patch).

const realTimer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

if (postgresAvailable())
  describe('PostgreSQL: a connection ended by the server mid-transaction', () => {
    let db: PostgresFixture
    let admin: postgres.Sql
    beforeAll(async () => {
      db = await makePostgres()
      admin = postgres(TEST_POSTGRES_URL!, { max: 1, onnotice: () => {} })
    })
    afterAll(async () => {
      await admin?.end()
      await db?.cleanup()
    })

    /** Ends every session on the test's database, as a restart does, and waits for the closes to arrive. */
    async function endSessions(): Promise<void> {
      const database = new URL(db.url).pathname.slice(1)
      await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${database} AND pid <> pg_backend_pid()`
      await realTimer(100)
    }

    /** The unit of work's outcome, once the work itself has ended too (the unit fails as soon as the connection ends). */
    async function failureOf(work: Parameters<typeof db.persistence.unitOfWork.run>[0]): Promise<unknown> {
      let workEnded!: Promise<unknown>
      const failure = await db.persistence.unitOfWork
        .run((r) => (workEnded = work(r)))
        .then(
          () => undefined,
          (error: unknown) => error,
        )
      await workEnded.catch(() => {})
      return failure
    }

    test('the unit of work fails as an outage, its next statements are not run elsewhere, and the next unit commits', async () => {
      const lost = [anOrganization(), anOrganization()]
      const failure = await failureOf(async (r) => {
        await r.organizations.count()
        await endSessions()
        // Both go to the closed connection: the first, and one sent after the first failed.
        await r.organizations.insert(lost[0]!).finally(() => r.organizations.insert(lost[1]!).catch(() => {}))
      })
      expect(db.persistence.outageOf(failure)).toBeDefined()

      const kept = anOrganization()
      await db.persistence.unitOfWork.run((r) => r.organizations.insert(kept))
      expect(await db.persistence.repositories.organizations.findById(kept.id)).toEqual(kept)
      for (const o of lost) expect(await db.persistence.repositories.organizations.findById(o.id)).toBeUndefined()
    })

    test('statements queued on the transaction when its connection ends fail with it', async () => {
      const organizations = [anOrganization(), anOrganization(), anOrganization()]
      const failure = await failureOf(async (r) => {
        await r.organizations.count()
        await endSessions()
        await Promise.all(organizations.map((o) => r.organizations.insert(o)))
      })
      expect(db.persistence.outageOf(failure)).toBeDefined()
      for (const o of organizations) expect(await db.persistence.repositories.organizations.findById(o.id)).toBeUndefined()
      // Readiness is down until a write commits again (docs/reliability.md): the next one does.
      expect(await db.persistence.ping()).toBe(false)
      await db.persistence.unitOfWork.run((r) => r.organizations.insert(anOrganization()))
      expect(await db.persistence.ping()).toBe(true)
    })
  })
