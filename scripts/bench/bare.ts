// The anchor every route is compared with: a bare Elysia route doing the service's own token check and the
// same single statement on the same database, with the same durability settings: one need read by primary
// key, a page of 25 needs read by index, or one need inserted into the same table (its indexes and triggers
// included). A second anchor for writes: one row inserted into a plain table (a key, the organization, the
// body; no other index, no trigger), what a write costs with nothing of a need's guarantees. Run as its own process by run.ts:
// BARE_DATABASE (sqlite path or postgres URL), JWT_SECRET, PORT.
import { Database } from 'bun:sqlite'
import { Elysia } from 'elysia'
import postgres from 'postgres'
import { HmacAccessTokens } from '../../src/adapters/security/hmac-access-tokens'
import { SystemClock } from '../../src/adapters/system/system-clock'

const target = process.env.BARE_DATABASE!
const tokens = new HmacAccessTokens(process.env.JWT_SECRET!, new SystemClock())

interface NewNeed {
  id: string
  organizationId: string
  partnerId: string
  customFields: unknown
}

interface Store {
  read(id: string): Promise<unknown>
  page(organizationId: string, status: string | undefined): Promise<readonly unknown[]>
  insert(need: NewNeed): Promise<void>
  insertPlain(need: NewNeed): Promise<void>
}

/** The plain table, made by the bare route in the benchmark's database (the service never reads it). */
const PLAIN_TABLE =
  'CREATE TABLE IF NOT EXISTS bench_plain_inserts (id text PRIMARY KEY, organization_id text NOT NULL, body text NOT NULL)'

function sqliteStore(path: string): Store {
  const db = new Database(path)
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000')
  const byId = db.query('SELECT * FROM needs WHERE id = ?')
  const page = db.query('SELECT * FROM needs WHERE organization_id = ? ORDER BY created_at DESC, id DESC LIMIT 25')
  const pageByStatus = db.query('SELECT * FROM needs WHERE organization_id = ? AND status = ? ORDER BY created_at DESC, id DESC LIMIT 25')
  db.exec(PLAIN_TABLE)
  const insertPlain = db.query('INSERT INTO bench_plain_inserts (id, organization_id, body) VALUES (?, ?, ?)')
  const insert = db.query(
    `INSERT INTO needs (id, organization_id, partner_id, status, custom_fields, is_confidential, created_at, updated_at, reference_number)
     VALUES (?, ?, ?, 'NEW', ?, 0, ?, ?, ?)`,
  )
  return {
    read: async (id) => byId.all(id)[0],
    page: async (organizationId, status) => (status ? pageByStatus.all(organizationId, status) : page.all(organizationId)),
    insert: async (n) => {
      const now = Date.now()
      insert.run(n.id, n.organizationId, n.partnerId, JSON.stringify(n.customFields), now, now, `BARE-${n.id}`)
    },
    insertPlain: async (n) => void insertPlain.run(n.id, n.organizationId, JSON.stringify(n.customFields)),
  }
}

async function postgresStore(url: string): Promise<Store> {
  const sql = postgres(url, { max: 10, onnotice: () => {} })
  await sql.unsafe(PLAIN_TABLE)
  return {
    read: async (id) => (await sql`SELECT * FROM needs WHERE id = ${id}`)[0],
    page: async (organizationId, status) =>
      status
        ? await sql`SELECT * FROM needs WHERE organization_id = ${organizationId} AND status = ${status} ORDER BY created_at DESC, id DESC LIMIT 25`
        : await sql`SELECT * FROM needs WHERE organization_id = ${organizationId} ORDER BY created_at DESC, id DESC LIMIT 25`,
    insert: async (n) =>
      void (await sql`INSERT INTO needs (id, organization_id, partner_id, status, custom_fields, is_confidential, created_at, updated_at, reference_number)
        VALUES (${n.id}, ${n.organizationId}, ${n.partnerId}, 'NEW', ${sql.json(n.customFields as never)}, false, now(), now(), ${`BARE-${n.id}`})`),
    insertPlain: async (n) =>
      void (await sql`INSERT INTO bench_plain_inserts (id, organization_id, body) VALUES (${n.id}, ${n.organizationId}, ${JSON.stringify(n.customFields)})`),
  }
}

const store = target.startsWith('postgres') ? await postgresStore(target) : sqliteStore(target)

/** The caller's organization, or undefined when the token does not check out. */
function organizationOf(header: string | undefined): string | undefined {
  if (!header?.startsWith('Bearer ')) return undefined
  const claims = tokens.verify(header.slice(7))
  return typeof claims === 'object' ? claims.organizationId : undefined
}

/**
 * A write route: the token checked, one row inserted. Its key is the kind the service gives a need (a
 * time-ordered UUID v7, docs/api/conventions.md "Identifiers"), so the ratio measures what the service does besides the
 * insert, not a choice of key.
 */
function inserting(insert: (need: NewNeed) => Promise<void>) {
  return async ({
    headers,
    body,
    set,
  }: {
    headers: Record<string, string | undefined>
    body: unknown
    set: { status?: number | string }
  }) => {
    const organizationId = organizationOf(headers.authorization)
    if (!organizationId) {
      set.status = 401
      return { title: 'Unauthorized' }
    }
    const { partnerId, customFields } = body as { partnerId: string; customFields: unknown }
    const id = Bun.randomUUIDv7()
    await insert({ id, organizationId, partnerId, customFields })
    set.status = 201
    return { id }
  }
}

new Elysia()
  .get('/bare/needs/:id', async ({ headers, params, set }) => {
    if (!organizationOf(headers.authorization)) {
      set.status = 401
      return { title: 'Unauthorized' }
    }
    const need = await store.read(params.id)
    if (!need) {
      set.status = 404
      return { title: 'Need not found' }
    }
    return need
  })
  .get('/bare/needs', async ({ headers, query, set }) => {
    const organizationId = organizationOf(headers.authorization)
    if (!organizationId) {
      set.status = 401
      return { title: 'Unauthorized' }
    }
    return store.page(organizationId, query.status)
  })
  .post('/bare/needs', inserting(store.insert))
  .post('/bare/plain', inserting(store.insertPlain))
  .listen({ port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1', reusePort: false }, (server) =>
    console.log(`bare listening on ${server.port}`),
  )
