import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net'
import postgres from 'postgres'
import { PostgresDatabase } from '../../../src/adapters/persistence/postgres/postgres-database'
import { anOrganization } from '../../support/builders'
import { postgresAvailable } from '../../support/postgres'
import { makePostgres, type PostgresFixture } from './postgres-fixture'

// A transaction's BEGIN goes out with its first reads instead of a round trip before them (the `postgres`
// client as patched: patches/postgres+3.4.9.patch), without giving up a guarantee: no write runs outside
// the transaction when BEGIN fails, and a unit of work runs again only when its BEGIN met a dead connection.

/**
 * A TCP proxy to the database that counts round trips (a write from the client after an answer) and can
 * leave its connections dead the way a restart does: the client finds out only when it next writes.
 */
async function proxyTo(url: string) {
  const target = new URL(url)
  const clients = new Set<Socket>()
  const stale = new WeakSet<Socket>()
  const counter = { roundTrips: 0 }
  const server = createServer((client) => {
    const database = createConnection({ host: target.hostname, port: Number(target.port || 5432) })
    clients.add(client)
    let answered = true
    client.on('data', (chunk) => {
      if (stale.has(client)) return void client.destroy()
      if (answered) counter.roundTrips++
      answered = false
      database.write(chunk)
    })
    database.on('data', (chunk) => {
      answered = true
      client.write(chunk)
    })
    for (const [a, b] of [
      [client, database],
      [database, client],
    ] as const) {
      a.on('close', () => b.destroy())
      a.on('error', () => b.destroy())
    }
    client.on('close', () => clients.delete(client))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const proxied = new URL(url)
  proxied.hostname = '127.0.0.1'
  proxied.port = String((server.address() as AddressInfo).port)
  return {
    url: proxied.toString(),
    counter,
    /** Every connection open now fails at its next write, as one whose server went away while it was idle. */
    killOpenConnections: () => {
      for (const client of clients) stale.add(client)
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

if (postgresAvailable())
  describe('PostgreSQL: BEGIN sent with the first statements', () => {
    let db: PostgresFixture
    let proxy: Awaited<ReturnType<typeof proxyTo>>
    let client: postgres.Sql
    beforeAll(async () => {
      db = await makePostgres()
      proxy = await proxyTo(db.url)
      client = postgres(proxy.url, { max: 1, onnotice: () => {} })
      await client`CREATE TABLE IF NOT EXISTS pipelined_begin (n int)`
    })
    afterAll(async () => {
      await client?.end()
      await proxy?.close()
      await db?.cleanup()
    })

    test('BEGIN and the reads started with it go out together, the writes with COMMIT after them', async () => {
      const transaction = () =>
        client.begin(async (tx) => {
          const [[one], [two]] = await Promise.all([tx`SELECT 1 AS n`, tx`SELECT 2 AS n`])
          tx`INSERT INTO pipelined_begin VALUES (${String(one!.n + two!.n)}::int)`.then(() => {})
          return [one!.n, two!.n]
        })
      // Once: the client asks the server for a statement's parameter types the first time it prepares it.
      await transaction()
      const before = proxy.counter.roundTrips
      expect(await transaction()).toEqual([1, 2])
      expect(proxy.counter.roundTrips - before).toBe(2)
      expect(await client`SELECT n FROM pipelined_begin WHERE n = 3`).toHaveLength(2)
    })

    test('when BEGIN fails, a read sent behind it was answered, but no write ran: each fails with its error', async () => {
      await client`DELETE FROM pipelined_begin`
      let read: unknown
      const failure = await client
        // An isolation level the server does not know: BEGIN fails on a live connection.
        .begin('isolation level nonsense', async (tx) => {
          const reading = tx`SELECT 1 AS n`
          const writing = tx`INSERT INTO pipelined_begin VALUES (1)`
          read = await reading.then(
            (rows) => rows[0]!.n,
            (error: unknown) => error,
          )
          await writing
          await tx`INSERT INTO pipelined_begin VALUES (2)`
        })
        .catch((error: unknown) => error)
      expect(failure).toMatchObject({ code: '42601', transactionNotBegun: true })
      expect(read).toBe(1)
      expect([...(await client`SELECT n FROM pipelined_begin`)]).toEqual([])
      // The connection serves the next transaction.
      await client.begin((tx) => tx`INSERT INTO pipelined_begin VALUES (4)`)
      expect([...(await client`SELECT n FROM pipelined_begin`)]).toEqual([{ n: 4 }])
    })

    test('a unit of work whose BEGIN meets a connection a restart left dead runs once more, on a fresh one', async () => {
      // A proxy of its own: the connections it leaves dead are this test's only.
      const proxy = await proxyTo(db.url)
      const database = new PostgresDatabase(proxy.url, { maxConnections: 2 })
      try {
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
      } finally {
        await database.close()
        await proxy.close()
      }
    })

    test('a unit of work whose connection dies after BEGIN was answered fails as an outage and does not run again', async () => {
      const proxy = await proxyTo(db.url)
      const database = new PostgresDatabase(proxy.url, { maxConnections: 2 })
      try {
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
      } finally {
        await database.close()
        await proxy.close()
      }
    })
  })
