import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import postgres from 'postgres'
import { ConflictError } from '../../../src/domain/errors'
import { PostgresDatabase } from '../../../src/adapters/persistence/postgres/postgres-database'
import type { AuditEvent } from '../../../src/domain/audit/audit-event'
import { anAuditEvent, anOrganization } from '../../support/builders'
import { databaseProxy, type DatabaseProxy } from '../../support/database-proxy'
import { postgresAvailable } from '../../support/postgres'
import { makePostgres, type PostgresFixture } from './postgres-fixture'

// A transaction's BEGIN goes out with its statements instead of a round trip before them (the `postgres`
// client as patched: patches/postgres+3.4.9.patch), without giving up a guarantee: no write runs outside
// the transaction when BEGIN fails (the pool's sessions are read-only unless a transaction asks), and a unit
// of work runs again only when its BEGIN met a dead connection.

if (postgresAvailable())
  describe('PostgreSQL: BEGIN sent with the first statements', () => {
    let db: PostgresFixture
    let proxy: DatabaseProxy
    let client: postgres.Sql
    beforeAll(async () => {
      db = await makePostgres()
      proxy = await databaseProxy(db.url)
      // Sessions as PostgresDatabase opens them: read-only unless a transaction asks for writes.
      client = postgres(proxy.url, { max: 1, onnotice: () => {}, connection: { default_transaction_read_only: true } })
      await client.begin((tx) => tx`CREATE TABLE IF NOT EXISTS pipelined_begin (n int)`)
    })
    afterAll(async () => {
      await client?.end()
      await proxy?.close()
      await db?.cleanup()
    })

    /** The service's database through a proxy of its own (the connections it leaves dead are that test's only), closed after `use`. */
    async function throughOwnProxy(
      use: (database: PostgresDatabase, proxy: DatabaseProxy) => Promise<void>,
      maxConnections = 2,
    ): Promise<void> {
      const proxy = await databaseProxy(db.url)
      const database = new PostgresDatabase(proxy.url, { maxConnections })
      try {
        await use(database, proxy)
      } finally {
        await database.close()
        await proxy.close()
      }
    }

    test('BEGIN, the statements started with it and COMMIT go out together; writes that wait on reads go with COMMIT after them', async () => {
      const readThenWrite = () =>
        client.begin(async (tx) => {
          const [[one], [two]] = await Promise.all([tx`SELECT 1 AS n`, tx`SELECT 2 AS n`])
          tx`INSERT INTO pipelined_begin VALUES (${String(one!.n + two!.n)}::int)`.then(() => {})
          return [one!.n, two!.n]
        })
      const writeAtOnce = () =>
        client.begin((tx) => {
          tx`SELECT 1 AS n`.then(() => {})
          tx`INSERT INTO pipelined_begin VALUES (${'5'}::int)`.then(() => {})
        })
      // Once each: the client asks the server for a statement's parameter types the first time it prepares it.
      await readThenWrite()
      await writeAtOnce()
      let before = proxy.counter.roundTrips
      expect(await readThenWrite()).toEqual([1, 2])
      expect(proxy.counter.roundTrips - before).toBe(2)
      before = proxy.counter.roundTrips
      await writeAtOnce()
      expect(proxy.counter.roundTrips - before).toBe(1)
      expect(await client`SELECT n FROM pipelined_begin WHERE n = 3`).toHaveLength(2)
      expect(await client`SELECT n FROM pipelined_begin WHERE n = 5`).toHaveLength(2)
    })

    test('when BEGIN fails, the statements sent behind it ran on their own: a read was answered, a write refused', async () => {
      await client.begin((tx) => tx`DELETE FROM pipelined_begin`)
      let read: unknown
      let written: unknown
      const failure = await client
        // An isolation level the server does not know: BEGIN fails on a live connection.
        .begin('isolation level nonsense', async (tx) => {
          // Both sent at once, behind BEGIN, before its answer.
          const reading = tx`SELECT 1 AS n`.execute()
          const writing = tx`INSERT INTO pipelined_begin VALUES (1)`.execute()
          read = await reading.then(
            (rows) => rows[0]!.n,
            (error: unknown) => error,
          )
          written = await writing.then(
            () => 'written',
            (error: unknown) => error,
          )
          await tx`INSERT INTO pipelined_begin VALUES (2)`
        })
        .catch((error: unknown) => error)
      expect(failure).toMatchObject({ code: '42601', transactionNotBegun: true })
      expect(read).toBe(1)
      // cannot execute INSERT in a read-only transaction
      expect(written).toMatchObject({ code: '25006' })
      expect([...(await client`SELECT n FROM pipelined_begin`)]).toEqual([])
      // The connection serves the next transaction.
      await client.begin((tx) => tx`INSERT INTO pipelined_begin VALUES (4)`)
      expect([...(await client`SELECT n FROM pipelined_begin`)]).toEqual([{ n: 4 }])
    })

    test('a write outside a unit of work runs in a transaction of its own; one whose connection a restart left dead is in doubt, and the next goes through', async () => {
      await throughOwnProxy(async (database, proxy) => {
        const organization = anOrganization()
        await database.repositories.organizations.insert(organization)
        expect(await database.repositories.organizations.findById(organization.id)).toEqual(organization)
        // The same row again: refused as a conflict, as it was in a statement of its own.
        await expect(database.repositories.organizations.insert(organization)).rejects.toBeInstanceOf(ConflictError)
        proxy.killOpenConnections()
        // The client cannot tell a connection the server had closed from one lost after its COMMIT went out.
        const lost = anOrganization()
        const failure = await database.repositories.organizations.insert(lost).catch((error: unknown) => error)
        expect(database.outageOf(failure)).toBe('in_doubt')
        const next = anOrganization()
        await database.repositories.organizations.insert(next)
        expect(await database.repositories.organizations.findById(next.id)).toEqual(next)
      })
    })

    test("behind a pooler that drops the read-only startup parameter, migrate refuses to go on and says what to set; with the role's setting on the server it goes on", async () => {
      const pooler = await databaseProxy(db.url, { dropStartupParameter: 'default_transaction_read_only' })
      const behind = new PostgresDatabase(pooler.url, { maxConnections: 2 })
      const admin = postgres(db.url, { max: 1, onnotice: () => {} })
      try {
        const failure = await behind.migrate().catch((error: unknown) => error)
        expect(String(failure)).toContain('SET default_transaction_read_only = on')

        const name = new URL(db.url).pathname.slice(1)
        await admin.unsafe(`ALTER ROLE CURRENT_USER IN DATABASE "${name}" SET default_transaction_read_only = on`)
        await behind.close()
        const set = new PostgresDatabase(pooler.url, { maxConnections: 2 })
        try {
          await set.migrate()
          const organization = anOrganization()
          await set.unitOfWork.run((r) => r.organizations.insert(organization))
          await set.repositories.organizations.update({ ...organization, name: 'Renamed outside a unit' })
          expect(await set.repositories.organizations.findById(organization.id)).toMatchObject({ name: 'Renamed outside a unit' })
        } finally {
          await set.close()
        }
      } finally {
        await behind.close()
        await admin.end()
        await pooler.close()
      }
    })

    test('a unit of work whose BEGIN meets a connection a restart left dead runs once more, on a fresh one', async () => {
      await throughOwnProxy(async (database, proxy) => {
        const organization = anOrganization()
        await database.repositories.organizations.findById(organization.id) // a connection open in the pool
        proxy.killOpenConnections()
        let runs = 0
        await database.unitOfWork.run(async (r) => {
          runs++
          await r.organizations.findById(organization.id)
          await r.organizations.insert(organization)
        })
        expect(runs).toBe(2)
        expect(await database.repositories.organizations.findById(organization.id)).toEqual(organization)
      }, 1)
    })

    test('a unit of work whose connection dies after BEGIN was answered fails as an outage and does not run again', async () => {
      await throughOwnProxy(async (database, proxy) => {
        const organization = anOrganization()
        let runs = 0
        const failure = await database.unitOfWork
          .run(async (r) => {
            runs++
            await r.organizations.findById(organization.id)
            proxy.killOpenConnections()
            await r.organizations.insert(organization)
          })
          .catch((error: unknown) => error)
        expect(database.outageOf(failure)).toBeTruthy()
        expect(runs).toBe(1)
        expect(await database.repositories.organizations.findById(organization.id)).toBeUndefined()
      })
    })

    // BEGIN's answer is lost with the others: its failing says nothing of what the server did once COMMIT had gone out with it.
    test('a unit of work whose connection is reset after the server committed, before any answer arrived, is in doubt and does not run again', async () => {
      await throughOwnProxy(async (database, proxy) => {
        const organization = anOrganization()
        await database.unitOfWork.run((r) => r.organizations.insert(organization))
        // Writes nobody reads, so COMMIT goes out with BEGIN; once first, for the statement to be prepared.
        const append = (event: AuditEvent) => database.unitOfWork.run((r) => r.auditEvents.append([event]))
        await append(anAuditEvent({ organizationId: organization.id }))
        const event = anAuditEvent({ organizationId: organization.id })
        proxy.loseAnswersFrom(new RegExp(event.id))
        let runs = 0
        const failure = await database.unitOfWork
          .run(async (r) => {
            runs++
            await r.auditEvents.append([event])
          })
          .catch((error: unknown) => error)
        expect(database.outageOf(failure)).toBe('in_doubt')
        expect(runs).toBe(1)
        expect(await client`SELECT id FROM audit_events WHERE id = ${event.id}`).toHaveLength(1)
        // One connection: the statement prepared once first is the one the trap meets.
      }, 1)
    })

    test('a write outside a unit of work whose connection is reset after the server committed is in doubt, not run again', async () => {
      await throughOwnProxy(async (database, proxy) => {
        const organization = anOrganization()
        await database.repositories.organizations.insert(organization)
        // A prepared statement, once first: then BEGIN, the insert and COMMIT go out together.
        await database.repositories.auditEvents.append([anAuditEvent({ organizationId: organization.id })])
        const event = anAuditEvent({ organizationId: organization.id })
        proxy.loseAnswersFrom(new RegExp(event.id))
        const failure = await database.repositories.auditEvents.append([event]).catch((error: unknown) => error)
        expect(database.outageOf(failure)).toBe('in_doubt')
        expect(await client`SELECT id FROM audit_events WHERE id = ${event.id}`).toHaveLength(1)
      }, 1)
    })
  })
