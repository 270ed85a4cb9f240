import { Database } from 'bun:sqlite'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import postgres from 'postgres'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Config } from '../../src/main/config'
import { startServer, type RunningServer } from '../../src/main/server'
import { createWorld, TEST_PASSWORD, testConfig, cheapPasswords, type World } from './world'
import { FixedClock } from './fixed-clock'
import { CapturedMail } from './captured-mail'
import { createTestDatabase } from './postgres'
import { PORTS } from '../../src/main/container'
import { LogEmailSender } from '../../src/adapters/messaging/log-email-sender'
import { PinoLogger } from '../../src/adapters/system/pino-logger'
import type { Clock } from '../../src/application/ports/clock'

export interface ApiResponse<T = any> {
  status: number
  headers: Headers
  body: T
}

export interface RequestOptions {
  token?: string
  body?: unknown
  /** A raw body sent as is (for malformed JSON and size tests). */
  raw?: string
  headers?: Record<string, string>
}

/** The real server on a random port over a fresh SQLite file, and a small client for it. */
export interface TestServer {
  url: string
  server: RunningServer
  /** The server's configuration: another instance started with it shares its database. */
  config: Config
  world: World
  logs: string[]
  /** The mail of organizations without email settings, whole, where tests read its links: the log holds only a trace of it. */
  fallbackMail: CapturedMail
  call<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>
  /** Logs in with the test password and answers the access token. */
  login(email: string, organizationSlug?: string): Promise<string>
  /** A confirmed member with a password; answers its access token and actor. */
  tokenFor(world: World, role: Parameters<World['member']>[0], options?: Parameters<World['member']>[1]): Promise<string>
  stop(): Promise<void>
  /** The SQLite file, when the test runs on SQLite. */
  sqlitePath?: string
  /** Everything the database holds, as stored: SQLite's files (with -wal, -shm), or every PostgreSQL table as text. */
  storedBytes(): Promise<Buffer[]>
  /** Every row of every table (SQLite's full-text index's own tables too) as text, one string per table. */
  storedRows(): Promise<string[]>
}

/** The database HTTP tests run on: SQLite by default, PostgreSQL with TEST_DATABASE=postgres (npm test runs both). */
export const TEST_DATABASE: 'sqlite' | 'postgres' = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite'

/** The database a test server gets: a fresh SQLite file, or a fresh database on the PostgreSQL test cluster. */
interface TestDatabase {
  env: Record<string, string>
  sqlitePath?: string
  storedBytes(): Promise<Buffer[]>
  storedRows(): Promise<string[]>
  drop(): Promise<void>
}

async function freshDatabase(): Promise<TestDatabase> {
  if (TEST_DATABASE === 'postgres') {
    const database = await createTestDatabase()
    return {
      env: {
        DATABASE_URL: database.url,
        JWT_SECRET: randomBytes(32).toString('hex'),
        DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      },
      async storedBytes() {
        return (await postgresRows(database.url)).map((text) => Buffer.from(text))
      },
      storedRows: () => postgresRows(database.url),
      drop: database.drop,
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'intake-http-'))
  const sqlitePath = join(dir, 'intake.sqlite')
  return {
    env: { DATABASE_URL: `sqlite:${sqlitePath}` },
    sqlitePath,
    async storedBytes() {
      return readdirSync(dir)
        .filter((name) => name.startsWith('intake.sqlite'))
        .map((name) => readFileSync(join(dir, name)))
    },
    async storedRows() {
      const db = new Database(sqlitePath, { readonly: true })
      try {
        const tables = db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'").all()
        // Blobs (the full-text index's pages) as their bytes, so a word inside them shows as text.
        const text = (value: unknown) => (value instanceof Uint8Array ? Buffer.from(value).toString('latin1') : value)
        return tables.map(({ name }) =>
          JSON.stringify(
            db
              .query(`SELECT * FROM "${name}"`)
              .all()
              .map((row) => Object.values(row as object).map(text)),
          ),
        )
      } finally {
        db.close()
      }
    },
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  }
}

/** Every table of a PostgreSQL database as JSON text, one string per table. */
async function postgresRows(url: string): Promise<string[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    const tables = await sql<Array<{ name: string }>>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`
    const dumps = await Promise.all(tables.map(({ name }) => sql.unsafe(`SELECT coalesce(json_agg(t)::text, '') AS text FROM "${name}" t`)))
    return dumps.map(([row]) => String(row?.text ?? ''))
  } finally {
    await sql.end()
  }
}

/** `clock`: the service's clock, standing still unless given (the world's `clock` is then that one). */
export async function startTestServer(env: Record<string, string> = {}, overrides: { clock?: Clock } = {}): Promise<TestServer> {
  const database = await freshDatabase()
  // Every test logs in from 127.0.0.1 under a clock that stands still: the login limit is tested on its own.
  // The shutdown drain is tested on a real process (tests/process/shutdown.test.ts); here it would only wait.
  const config: Config = testConfig({
    ...database.env,
    PORT: '0',
    HOST: '127.0.0.1',
    AUTH_RATE_LIMIT: '1000000',
    SHUTDOWN_DRAIN_MS: '0',
    ...env,
  })
  const logs: string[] = []
  const passwords = cheapPasswords()
  // The service's own logger, writing its lines here: what a test finds in them is what an operator would.
  const logger = new PinoLogger('info', { write: (line: string) => void logs.push(line.trimEnd()) })
  const fallbackMail = new CapturedMail(new LogEmailSender(logger))
  const server = await startServer(config, {
    clock: overrides.clock ?? new FixedClock(new Date().toISOString()),
    passwords,
    logger,
    fallbackEmail: fallbackMail,
  })
  const world = await createWorld(config, server.container, server.container.get(PORTS.clock) as FixedClock)

  async function call<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers }
    if (options.token) headers.authorization = `Bearer ${options.token}`
    let body: string | undefined = options.raw
    if (options.body !== undefined) body = JSON.stringify(options.body)
    // Bodies are JSON unless a test says otherwise (fetch would send a string as text/plain).
    if (body !== undefined) headers['content-type'] ??= 'application/json'
    const response = await fetch(`${server.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) })
    // A live stream never ends by itself: its answer is its status and headers, its body left unread.
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      await response.body?.cancel()
      return { status: response.status, headers: response.headers, body: undefined as T }
    }
    const text = await response.text()
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {}
    return { status: response.status, headers: response.headers, body: parsed as T }
  }

  async function login(email: string, organizationSlug?: string): Promise<string> {
    const response = await call<{ accessToken: string }>('POST', '/api/auth/login', {
      body: { email, password: TEST_PASSWORD, ...(organizationSlug ? { organizationSlug } : {}) },
    })
    if (response.status !== 200) throw new Error(`login failed: ${response.status} ${JSON.stringify(response.body)}`)
    return response.body.accessToken
  }

  return {
    url: server.url,
    server,
    config,
    ...(database.sqlitePath ? { sqlitePath: database.sqlitePath } : {}),
    storedBytes: () => database.storedBytes(),
    storedRows: () => database.storedRows(),
    world,
    logs,
    fallbackMail,
    call,
    login,
    async tokenFor(w, role, options = {}) {
      const passwordHash = await passwords.hash(TEST_PASSWORD)
      const actor = await w.member(role, { ...options, passwordHash })
      const member = await w.repositories.members.findById(actor.organizationId, actor.memberId)
      const organization = await w.repositories.organizations.findById(actor.organizationId)
      return login(member!.email, organization!.slug)
    },
    async stop() {
      await server.stop()
      await database.drop()
    },
  }
}
