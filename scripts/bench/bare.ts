// The anchor every route is compared with: a bare Elysia route doing the service's own token check and one
// read by primary key, or one insert, on the same database engine with the same durability settings.
// Run as its own process by run.ts: BARE_DATABASE (sqlite path or postgres URL), JWT_SECRET, PORT.
import { Database } from 'bun:sqlite'
import { Elysia } from 'elysia'
import postgres from 'postgres'
import { HmacAccessTokens } from '../../src/adapters/security/hmac-access-tokens'
import { SystemClock } from '../../src/adapters/system/system-clock'

const target = process.env.BARE_DATABASE!
const tokens = new HmacAccessTokens(process.env.JWT_SECRET!, new SystemClock())

interface Store {
  read(id: string): Promise<unknown>
  insert(id: string, body: unknown): Promise<void>
}

function sqliteStore(path: string): Store {
  const reader = new Database(path, { readonly: true })
  // Inserts go to a file of their own, so the service's database is left as the service wrote it.
  const writer = new Database(`${path}.bare-writes`, { create: true })
  writer.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; CREATE TABLE IF NOT EXISTS writes (id TEXT PRIMARY KEY, body TEXT NOT NULL, created_at INTEGER NOT NULL)')
  const byId = reader.query('SELECT * FROM needs WHERE id = ?')
  const insert = writer.query('INSERT INTO writes (id, body, created_at) VALUES (?, ?, ?)')
  return {
    read: async (id) => byId.all(id)[0],
    insert: async (id, body) => void insert.run(id, JSON.stringify(body), Date.now()),
  }
}

async function postgresStore(url: string): Promise<Store> {
  const sql = postgres(url, { max: 10, onnotice: () => {} })
  await sql`CREATE TABLE IF NOT EXISTS bare_writes (id text PRIMARY KEY, body jsonb NOT NULL, created_at timestamptz NOT NULL)`
  return {
    read: async (id) => (await sql`SELECT * FROM needs WHERE id = ${id}`)[0],
    insert: async (id, body) => void (await sql`INSERT INTO bare_writes (id, body, created_at) VALUES (${id}, ${sql.json(body as never)}, now())`),
  }
}

const store = target.startsWith('postgres') ? await postgresStore(target) : sqliteStore(target)

const authorized = (header: string | null) => header?.startsWith('Bearer ') === true && typeof tokens.verify(header.slice(7)) === 'object'

new Elysia()
  .get('/bare/needs/:id', async ({ headers, params, set }) => {
    if (!authorized(headers.authorization ?? null)) return (set.status = 401), { title: 'Unauthorized' }
    const need = await store.read(params.id)
    if (!need) return (set.status = 404), { title: 'Need not found' }
    return need
  })
  .post('/bare/needs', async ({ headers, body, set }) => {
    if (!authorized(headers.authorization ?? null)) return (set.status = 401), { title: 'Unauthorized' }
    const id = crypto.randomUUID()
    await store.insert(id, body)
    set.status = 201
    return { id }
  })
  .listen({ port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1', reusePort: false }, (server) => console.log(`bare listening on ${server.port}`))
