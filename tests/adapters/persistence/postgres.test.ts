import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { drizzle } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import { POSTGRES_MIGRATIONS } from '../../../src/adapters/persistence/postgres/migrations'
import { PostgresDatabase } from '../../../src/adapters/persistence/postgres/postgres-database'
import { postgresDialect } from '../../../src/adapters/persistence/postgres/postgres-dialect'
import * as schema from '../../../src/adapters/persistence/postgres/schema'
import { sqlRepositories, type SqlDb } from '../../../src/adapters/persistence/sql/sql-repositories'
import type { Repositories } from '../../../src/application/ports/repositories'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import { matchKeysOf } from '../../../src/domain/constituents/matching'
import { parseConstituentQuery } from '../../../src/domain/constituents/search'
import { newestFirst } from '../../../src/domain/shared/page'
import { ConflictError } from '../../../src/domain/errors'
import type { OutboxMessage } from '../../../src/domain/messaging/outbox'
import { FIRST_REFERENCE_NUMBER } from '../../../src/domain/needs/need'
import { aConstituent, aHousehold, aMember, aNewNeed, anOrganization, aPartner } from '../../support/builders'
import { createTestDatabase, postgresAvailable, TEST_POSTGRES_URL } from '../../support/postgres'
import { needsToPlan } from './plan-data'
import { minute } from './contract-support'
import { makePostgres, type PostgresFixture } from './postgres-fixture'
import { describeRepositories } from './repository-contract'

// The repository contract on PostgreSQL, and what only PostgreSQL has: several processes on one
// database at once (row locks, SKIP LOCKED), constraint names, and the GIN text-search index. Without
// TEST_POSTGRES_URL nothing here runs and postgresAvailable() says so in one line (the suites are registered
// at the end of the file).

/** A promise and the function that resolves it: lets a test hold a transaction open. */
function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { open, opened }
}

const realTimer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** 'settled' when the promise settles within `ms`, 'waiting' otherwise (it keeps running). */
function within(promise: Promise<unknown>, ms: number): Promise<'settled' | 'waiting'> {
  const settled = promise.then(
    () => 'settled' as const,
    () => 'settled' as const,
  )
  return Promise.race([settled, realTimer(ms).then(() => 'waiting' as const)])
}

/** `count` pending SMS messages of one organization, due one millisecond apart from `at`. */
function dueMessages(organizationId: string, count: number, at = minute(0)): OutboxMessage[] {
  return Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    organizationId,
    payload: { channel: 'sms', sms: { from: '+15550001111', to: '+15552223333', body: `text ${i}`, interactionId: randomUUID() } },
    status: 'pending',
    attempts: 0,
    nextAttemptAt: new Date(at.getTime() + i),
    createdAt: at,
  }))
}

/** What only PostgreSQL has: several instances on one database, partial unique indexes, query plans. */
function describePostgresOnly(): void {
  describe('PostgreSQL database', () => {
    let db: PostgresFixture
    /** A second instance on the same database: another process of the service. */
    let other: PostgresDatabase
    beforeAll(async () => {
      db = await makePostgres()
      other = new PostgresDatabase(db.url)
    })
    afterAll(async () => {
      await other?.close()
      await db?.cleanup()
    })

    const write = <T>(work: (r: Repositories) => Promise<T>) => db.persistence.unitOfWork.run(work)
    const read = () => db.persistence.repositories

    async function anOrganizationWithMessages(count: number, overrides: Parameters<typeof anOrganization>[0] = {}) {
      const organization = anOrganization(overrides)
      const messages = dueMessages(organization.id, count)
      await write(async (r) => {
        await r.organizations.insert(organization)
        for (const message of messages) await r.outbox.enqueue(message)
      })
      return { organization, messages }
    }

    test('drops its database on cleanup', async () => {
      const fixture = await makePostgres()
      const name = new URL(fixture.url).pathname.slice(1)
      const admin = postgres(TEST_POSTGRES_URL!, { max: 1, onnotice: () => {} })
      try {
        const exists = async () => (await admin`SELECT 1 FROM pg_database WHERE datname = ${name}`).length === 1
        expect(await exists()).toBe(true)
        await fixture.cleanup()
        expect(await exists()).toBe(false)
      } finally {
        await admin.end()
      }
    })

    test('two instances migrating one fresh database at once apply each migration once (the advisory lock)', async () => {
      const fresh = await createTestDatabase()
      const instances = [new PostgresDatabase(fresh.url), new PostgresDatabase(fresh.url)]
      const client = postgres(fresh.url, { max: 1, onnotice: () => {} })
      try {
        await Promise.all(instances.map((instance) => instance.migrate()))

        const [applied] = await client`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`
        expect(applied?.n).toBe(POSTGRES_MIGRATIONS.length)
        const organization = anOrganization()
        await instances[0]!.unitOfWork.run((r) => r.organizations.insert(organization))
        expect(await instances[1]!.repositories.organizations.findById(organization.id)).toEqual(organization)
      } finally {
        await client.end()
        for (const instance of instances) await instance.close()
        await fresh.drop()
      }
    })

    test('stays usable after failed transactions with a pool of one connection: each gives it back', async () => {
      const small = new PostgresDatabase(db.url, { maxConnections: 1 })
      try {
        const organization = anOrganization()
        for (let i = 0; i < 10; i++) {
          const failure = new Error(`failure ${i}`)
          await expect(
            small.unitOfWork.run(async (r) => {
              await r.organizations.insert(organization)
              throw failure
            }),
          ).rejects.toBe(failure)
          // A statement the database refuses aborts the transaction: it is rolled back, and the connection freed.
          await expect(small.unitOfWork.run((r) => r.members.insert(aMember({ organizationId: randomUUID() })))).rejects.toThrow()
        }
        await small.unitOfWork.run((r) => r.organizations.insert(organization))
        expect(await small.repositories.organizations.findById(organization.id)).toEqual(organization)
      } finally {
        await small.close()
      }
    })

    test('connections the database closed while idle (a restart) cost no request: reads and transactions run on fresh ones', async () => {
      const pool = new PostgresDatabase(db.url, { maxConnections: 4 })
      const admin = postgres(db.url, { max: 1, onnotice: () => {} })
      try {
        const organization = anOrganization()
        const partner = aPartner({ organizationId: organization.id })
        await pool.unitOfWork.run(async (r) => {
          await r.organizations.insert(organization)
          await r.partners.insert(partner)
        })
        // Open every connection of the pool, then have the server end them all, as a restart does.
        await Promise.all(Array.from({ length: 8 }, () => pool.repositories.organizations.findById(organization.id)))
        await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`
        await realTimer(50)
        for (let i = 0; i < 8; i++) expect(await pool.repositories.organizations.findById(organization.id)).toEqual(organization)
        await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`
        await realTimer(50)
        const create = () =>
          pool.unitOfWork.run((r) => r.needs.insertMany([aNewNeed({ organizationId: organization.id, partnerId: partner.id })]))
        for (let i = 0; i < 8; i++) await create()
        expect(await (await create()).referenceNumbers).toEqual([`REQ-${FIRST_REFERENCE_NUMBER + 8}`])
      } finally {
        await admin.end()
        await pool.close()
      }
    })

    test('the database itself refuses to change an audit event; the purge still deletes', async () => {
      const organization = anOrganization()
      const event = {
        id: randomUUID(),
        organizationId: organization.id,
        action: 'update',
        recordType: 'need',
        recordId: randomUUID(),
        at: minute(0),
      } as const
      await write(async (r) => {
        await r.organizations.insert(organization)
        await r.auditEvents.append([event])
      })
      const client = postgres(db.url, { max: 1, onnotice: () => {} })
      try {
        await expect(client`UPDATE audit_events SET action = 'read' WHERE id = ${event.id}`).rejects.toThrow('append-only')
      } finally {
        await client.end()
      }
      expect((await read().auditEvents.list(organization.id, {}, { page: 1, limit: 10 })).items).toEqual([event])
      expect(await write((r) => r.auditEvents.purge(organization.id, minute(1), 10))).toBe(1)
    })

    describe('default partners (a partial unique index)', () => {
      test('refuses a second default partner in one organization and rolls the whole write back', async () => {
        const organization = anOrganization()
        const first = aPartner({ organizationId: organization.id, isDefault: true })
        await write(async (r) => {
          await r.organizations.insert(organization)
          await r.partners.insert(first)
        })
        const bystander = aPartner({ organizationId: organization.id })
        const second = aPartner({ organizationId: organization.id, isDefault: true })

        const outcome = write(async (r) => {
          await r.partners.insert(bystander)
          await r.partners.insert(second)
        })

        await expect(outcome).rejects.toThrow()
        expect(await read().partners.listAll(organization.id)).toEqual([first])
      })

      test('refuses making a partner default while another still is', async () => {
        const organization = anOrganization()
        const first = aPartner({ organizationId: organization.id, isDefault: true })
        const second = aPartner({ organizationId: organization.id })
        await write(async (r) => {
          await r.organizations.insert(organization)
          await r.partners.insert(first)
          await r.partners.insert(second)
        })

        await expect(write((r) => r.partners.update({ ...second, isDefault: true }))).rejects.toThrow()
        expect(await read().partners.findById(organization.id, second.id)).toEqual(second)
      })

      test('a default partner of another organization is no conflict', async () => {
        const a = anOrganization()
        const b = anOrganization()
        const defaults = [aPartner({ organizationId: a.id, isDefault: true }), aPartner({ organizationId: b.id, isDefault: true })]
        await write(async (r) => {
          await r.organizations.insert(a)
          await r.organizations.insert(b)
          for (const partner of defaults) await r.partners.insert(partner)
        })

        expect(await read().partners.listAll(a.id)).toEqual([defaults[0]!])
        expect(await read().partners.listAll(b.id)).toEqual([defaults[1]!])
      })
    })

    test('two invites of one email from two instances at once end with one member and one ConflictError, the loser keeping nothing', async () => {
      const organization = anOrganization()
      await write(async (r) => {
        await r.organizations.insert(organization)
        await r.partners.insert(aPartner({ organizationId: organization.id, isDefault: true }))
      })
      const email = `${randomUUID()}@example.org`
      // What InviteMember does in its transaction: the member, its invitation, the email in the outbox.
      const invite = (database: PostgresDatabase, inserted: () => void, release: Promise<void>) => {
        const member = aMember({ organizationId: organization.id, email, isConfirmed: false })
        const messageId = randomUUID()
        const tokenDigest = randomUUID()
        const outcome = database.unitOfWork.run(async (r) => {
          await r.invitations.findByDigest(tokenDigest)
          inserted()
          await release
          await r.members.insert(member)
          await r.invitations.insert({
            id: randomUUID(),
            organizationId: organization.id,
            memberId: member.id,
            tokenDigest,
            createdAt: minute(0),
            expiresAt: minute(60),
          })
          await r.outbox.enqueue({
            id: messageId,
            organizationId: organization.id,
            payload: { channel: 'email', email: { to: email, subject: 'Invited', text: 'link' } },
            status: 'pending',
            attempts: 0,
            nextAttemptAt: minute(0),
            createdAt: minute(0),
          })
          return member
        })
        return { member, messageId, tokenDigest, outcome }
      }

      // Both transactions are open before either inserts: the unique index, not the order, decides.
      const [startedA, startedB, go] = [gate(), gate(), gate()]
      const first = invite(db.persistence, startedA.open, go.opened)
      const second = invite(other, startedB.open, go.opened)
      await Promise.all([startedA.opened, startedB.opened])
      go.open()
      const settled = await Promise.allSettled([first.outcome, second.outcome])

      const rejected = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected')
      expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(1)
      expect(rejected).toHaveLength(1)
      expect(rejected[0]!.reason).toBeInstanceOf(ConflictError)
      expect((rejected[0]!.reason as ConflictError).message).toBe('A member with this email already exists in the organization')
      const [winner, loser] = settled[0]!.status === 'fulfilled' ? [first, second] : [second, first]
      expect(await read().members.findAllByEmail(email)).toEqual([winner.member])
      expect(await read().outbox.findById(winner.messageId)).toBeDefined()
      expect(await read().outbox.findById(loser.messageId)).toBeUndefined()
      expect((await read().invitations.findByDigest(winner.tokenDigest))?.memberId).toBe(winner.member.id)
      expect(await read().invitations.findByDigest(loser.tokenDigest)).toBeUndefined()
    })

    describe('outbox claims from two instances (FOR UPDATE SKIP LOCKED)', () => {
      const now = minute(60)
      const lockedUntil = minute(61)

      test('a claim skips the messages an open claim of another instance holds, without waiting for it', async () => {
        const { organization, messages } = await anOrganizationWithMessages(20)
        const claimedA = gate()
        const release = gate()
        const first = db.persistence.unitOfWork.run(async (r) => {
          const claimed = await r.outbox.claimDue(organization.id, now, 5, lockedUntil)
          claimedA.open()
          await release.opened
          return claimed
        })
        await claimedA.opened

        const second = other.unitOfWork.run((r) => r.outbox.claimDue(organization.id, now, 5, lockedUntil))
        const waited = await within(second, 2_000)
        release.open()

        expect(waited).toBe('settled')
        expect((await first).map((m) => m.id)).toEqual(messages.slice(0, 5).map((m) => m.id))
        expect((await second).map((m) => m.id)).toEqual(messages.slice(5, 10).map((m) => m.id))
        expect(await read().outbox.countInFlight(organization.id, now)).toBe(10)
      })

      test('many concurrent claims from two instances never hand out one message twice, and leave none behind', async () => {
        const { organization, messages } = await anOrganizationWithMessages(60)
        const claimLoop = async (database: PostgresDatabase) => {
          const taken: string[] = []
          for (;;) {
            const claimed = await database.unitOfWork.run(async (r) => {
              const batch = await r.outbox.claimDue(organization.id, now, 3, lockedUntil)
              await new Promise((resolve) => setImmediate(resolve))
              return batch
            })
            if (claimed.length === 0) return taken
            taken.push(...claimed.map((m) => m.id))
          }
        }

        const results = await Promise.all([claimLoop(db.persistence), claimLoop(other), claimLoop(db.persistence), claimLoop(other)])
        const all = results.flat()

        expect(all).toHaveLength(messages.length)
        expect(new Set(all).size).toBe(messages.length)
        expect(new Set(all)).toEqual(new Set(messages.map((m) => m.id)))
        expect(await read().outbox.countInFlight(organization.id, now)).toBe(messages.length)
      })

      test('the per-organization cap holds with two instances claiming at once: the organization row lock makes the second count after the first', async () => {
        const cap = 3
        const { organization } = await anOrganizationWithMessages(10, { maxConcurrency: cap })
        // What the dispatcher does in one transaction: lock the organization, count its live claims, claim what is left.
        const claimUnderCap = (database: PostgresDatabase, counted?: () => void, release?: Promise<void>) =>
          database.unitOfWork.run(async (r) => {
            await r.organizations.lockForUpdate(organization.id)
            const free = cap - (await r.outbox.countInFlight(organization.id, now))
            const claimed = await r.outbox.claimDue(organization.id, now, free, lockedUntil)
            counted?.()
            await release
            return claimed
          })

        const firstClaimed = gate()
        const release = gate()
        const first = claimUnderCap(db.persistence, firstClaimed.open, release.opened)
        await firstClaimed.opened
        const second = claimUnderCap(other)
        const whileFirstHolds = await within(second, 300)
        release.open()

        // The second instance waits on the organization row while the first holds it, then counts its claims.
        expect(whileFirstHolds).toBe('waiting')
        expect(await first).toHaveLength(cap)
        expect(await second).toEqual([])
        expect(await read().outbox.countInFlight(organization.id, now)).toBe(cap)
      })

      test('the cap holds over many rounds of claims racing from two instances', async () => {
        const cap = 3
        const { organization } = await anOrganizationWithMessages(12, { maxConcurrency: cap })
        const claimUnderCap = (database: PostgresDatabase, at: Date) =>
          database.unitOfWork.run(async (r) => {
            await r.organizations.lockForUpdate(organization.id)
            const free = cap - (await r.outbox.countInFlight(organization.id, at))
            await new Promise((resolve) => setImmediate(resolve))
            return r.outbox.claimDue(organization.id, at, free, new Date(at.getTime() + 60_000))
          })

        // Each round's claims lapse before the next: at most `cap` in flight at any time, every round filling the cap.
        for (let round = 0; round < 4; round++) {
          const at = minute(100 + round * 2)
          const claims = await Promise.all([
            claimUnderCap(db.persistence, at),
            claimUnderCap(other, at),
            claimUnderCap(db.persistence, at),
            claimUnderCap(other, at),
          ])
          expect(claims.flat()).toHaveLength(cap)
          expect(await read().outbox.countInFlight(organization.id, at)).toBe(cap)
        }
      })
    })

    test('two instances creating needs at once get distinct, consecutive numbers, awaited in the unit or after COMMIT', async () => {
      const organization = anOrganization()
      const partner = aPartner({ organizationId: organization.id })
      await write(async (r) => {
        await r.organizations.insert(organization)
        await r.partners.insert(partner)
      })
      const aNew = () => aNewNeed({ organizationId: organization.id, partnerId: partner.id })
      const createTen = (database: PostgresDatabase) =>
        database.unitOfWork.run(async (r) => {
          const taken: string[] = []
          for (let i = 0; i < 10; i++) {
            taken.push(...(await (await r.needs.insertMany([aNew()])).referenceNumbers))
            await new Promise((resolve) => setImmediate(resolve))
          }
          return taken
        })
      // As a staff create: the insert goes out with COMMIT, its number read once the unit has committed.
      const createOne = async (database: PostgresDatabase) => {
        const { referenceNumbers } = await database.unitOfWork.run((r) => r.needs.insertMany([aNew()]))
        return referenceNumbers
      }
      const each = (database: PostgresDatabase) => [
        ...Array.from({ length: 5 }, () => createTen(database)),
        ...Array.from({ length: 25 }, () => createOne(database)),
      ]

      const all = (await Promise.all([...each(db.persistence), ...each(other)])).flat()

      expect(new Set(all).size).toBe(150)
      const numbers = all.map((reference) => Number(reference.slice('REQ-'.length))).sort((a, b) => a - b)
      expect(numbers).toEqual(Array.from({ length: 150 }, (_, i) => FIRST_REFERENCE_NUMBER + i))
    })

    describe('query plans', () => {
      /** The PostgreSQL repositories over their own client, recording every statement they run with its parameters. */
      let client: postgres.Sql
      let recorded: Array<{ query: string; params: unknown[] }>
      let repositories: Repositories
      const organization = anOrganization()
      const otherOrganization = anOrganization()
      let xiomara: Constituent

      beforeAll(async () => {
        client = postgres(db.url, { max: 1, onnotice: () => {} })
        recorded = []
        const logger = { logQuery: (query: string, params: unknown[]) => void recorded.push({ query, params }) }
        repositories = sqlRepositories(drizzle({ client, schema, logger }) as unknown as SqlDb, postgresDialect)

        // A few hundred people in two organizations, VACUUMed and ANALYZEd: enough for the planner to weigh its indexes.
        await write(async (r) => {
          for (const o of [organization, otherOrganization]) {
            await r.organizations.insert(o)
            for (let h = 0; h < 60; h++) {
              const household = aHousehold({ organizationId: o.id })
              await r.constituents.insertHousehold(household)
              for (let i = 0; i < 5; i++) {
                const n = h * 5 + i
                await r.constituents.insert(
                  aConstituent({
                    organizationId: o.id,
                    householdId: household.id,
                    createdAt: minute(n),
                    updatedAt: minute(n),
                    firstName: ['María', 'José', 'Ana', 'Luis', 'Wei', 'Olga'][n % 6],
                    lastName: `Name${n}`,
                    phone: `+1300${String(1_000_000 + n).padStart(7, '0')}`,
                    email: `person${n}@example.org`,
                    dateOfBirth: `19${50 + (n % 40)}-01-01`,
                    addressStreet: `${n} Main St`,
                  }),
                )
              }
            }
          }
          const household = aHousehold({ organizationId: organization.id })
          await r.constituents.insertHousehold(household)
          xiomara = aConstituent({
            organizationId: organization.id,
            householdId: household.id,
            firstName: 'Xiomara',
            lastName: 'Quispe',
            phone: '+15550001000',
            email: 'xiomara.quispe@example.org',
            dateOfBirth: '1975-05-05',
            addressStreet: '77 Calle Luna',
          })
          await r.constituents.insert(xiomara)
        })
        // VACUUM as autovacuum would: until then a GIN index keeps new entries in its pending list, which the
        // planner costs page by page (ten phone endings a person fill it fast).
        await client`VACUUM ANALYZE constituents`
      })
      afterAll(async () => {
        await client?.end()
      })

      /** The statements `run` makes the repositories issue, each with its plan (sequential scans off). */
      async function plansOf(run: () => Promise<unknown>): Promise<Array<{ query: string; plan: string }>> {
        recorded = []
        await run()
        const statements = recorded
        return client.begin(async (tx) => {
          await tx`SET LOCAL enable_seqscan = off`
          const plans: Array<{ query: string; plan: string }> = []
          for (const { query, params } of statements) {
            const rows = await tx.unsafe(`EXPLAIN ${query}`, params as never[])
            plans.push({ query, plan: rows.map((row) => String(row['QUERY PLAN'])).join('\n') })
          }
          return plans
        })
      }

      test('searching names and phone digits goes through the GIN index constituents_search, for the page and the total', async () => {
        for (const text of ['xio qui', 'Quispe', '555 000', '+1 (555) 000-1000', '0001000', 'xiomara 0001']) {
          const query = parseConstituentQuery(text)
          let page: Awaited<ReturnType<Repositories['constituents']['search']>> | undefined
          const plans = await plansOf(
            async () => (page = await repositories.constituents.search(organization.id, query, { page: 1, limit: 25 })),
          )

          expect(page).toEqual({ items: [xiomara], total: 1 })
          expect(plans).toHaveLength(2)
          for (const { plan } of plans) expect(plan).toContain('constituents_search')
        }
      })

      test('a common name counts up to the bound through the GIN index and walks the organization newest first for its page', async () => {
        // Each first name is one person in six, and every phone here begins +1300; a bound of 10 makes both common
        // among these few hundred. (With a test per word, a query of several words is costed as rarer: among a
        // few hundred rows PostgreSQL then sorts them, which is cheaper there; among thousands it walks.)
        for (const [text, matches] of [
          ['maria', (c: Constituent) => c.firstName === 'María'],
          ['1300', (c: Constituent) => c.phone?.startsWith('+1300') === true],
        ] as const) {
          const query = parseConstituentQuery(text)
          let page: Awaited<ReturnType<Repositories['constituents']['search']>> | undefined
          const plans = await plansOf(
            async () => (page = await repositories.constituents.search(organization.id, query, { page: 1, limit: 25 }, 10)),
          )

          expect(page!.items).toHaveLength(25)
          expect(page!.items.every(matches)).toBe(true)
          expect(page!.items).toEqual([...page!.items].sort(newestFirst))
          expect(page).toMatchObject({ total: 25, totalIsLowerBound: true })
          const [count, walk] = plans
          expect(plans).toHaveLength(2)
          // The count stops one past the cap (the page's end, 25, here), reading the index.
          expect(count!.plan).toContain('constituents_search')
          expect(count!.plan).toMatch(/^Aggregate[\s\S]*Limit/)
          // The page reads the organization in list order and stops at its 25th match: no sort, no set of matches.
          expect(walk!.plan).toMatch(/^Limit[\s\S]*Index Scan Backward using constituents_newest/)
          expect(walk!.plan).not.toContain('Sort')
          expect(walk!.plan).not.toContain('constituents_search')
        }
      })

      test('finding duplicates uses one constituents_by_* index per key', async () => {
        const keys = matchKeysOf(xiomara)
        const plans = await plansOf(() => repositories.constituents.findByMatchKeys(organization.id, keys, randomUUID(), 10))

        expect(plans).toHaveLength(4)
        const indexes = plans.map(({ plan }) => /constituents_by_\w+/.exec(plan)?.[0])
        expect(indexes).toEqual([
          'constituents_by_phone',
          'constituents_by_email',
          'constituents_by_name_birth',
          'constituents_by_last_street',
        ])
        expect(await repositories.constituents.findByMatchKeys(organization.id, keys, randomUUID(), 10)).toEqual([xiomara])
      })

      test("an overdue list and the report's overdue count read the index of open needs by due date, never the needs' table", async () => {
        await write((r) => needsToPlan(r, organization.id))
        await client`ANALYZE needs`
        const now = minute(1500)
        const listPlans = await plansOf(() => repositories.needs.list(organization.id, { openDueBefore: now }, { page: 1, limit: 25 }))
        const reportPlans = await plansOf(() =>
          repositories.needReports.figures(organization.id, { from: '2026-11-01', to: '2026-11-30' }, now),
        )

        const readingNeeds = [...listPlans, ...reportPlans].filter(({ query }) => /from "needs"/.test(query))
        expect(readingNeeds).toHaveLength(3) // the page, the total's and the report's counts of the bound's own day
        for (const { plan } of readingNeeds) {
          expect(plan).toContain('needs_open_by_due')
          expect(plan).not.toContain('Seq Scan')
        }
      })

      test('a list by assignee or by person, and retention, read the partial indexes of the needs that have one', async () => {
        const { member, person } = await write((r) => needsToPlan(r, otherOrganization.id))
        await client`ANALYZE needs`
        const ofNeeds = async (run: () => Promise<unknown>) => (await plansOf(run)).filter(({ query }) => /from "needs"/.test(query))
        const page = { page: 1, limit: 25 }

        const byAssignee = await ofNeeds(() => repositories.needs.list(otherOrganization.id, { assignedTo: member.id }, page))
        const byPerson = await ofNeeds(() => repositories.needs.list(otherOrganization.id, { constituentId: person.id }, page))
        // Nothing is that old, so nothing is cleared: only the look is planned.
        const retention = await ofNeeds(() => repositories.needs.clearResolvedText(otherOrganization.id, minute(-1), minute(400), 100))

        for (const [plans, index] of [
          [byAssignee, 'needs_by_assignee'],
          [byPerson, 'needs_by_constituent'],
          [retention, 'needs_text_retention'],
        ] as const) {
          expect(plans.length).toBeGreaterThan(0)
          expect(plans.map(({ plan }) => plan).join()).toContain(index)
          for (const { plan } of plans) expect(plan).not.toContain('Seq Scan')
        }
      })
    })
  })
}

if (postgresAvailable()) {
  describeRepositories('PostgreSQL', makePostgres)
  describePostgresOnly()
}
