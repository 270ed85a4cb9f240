import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestDatabase } from '../support/postgres'
import { ApiClient, type ServeProcess } from './cli-process'

// What the durability and load suites (tests/process/durability.test.ts, load.test.ts) and `npm run soak`
// share: a database for `intake serve` children, clients that write and remember what was acknowledged,
// and a read-back of everything stored. docs/reliability.md gives the figures they produce.

export type DatabaseKind = 'sqlite' | 'postgres'

export const ADMIN = { email: 'admin@reliability.example.org', password: 'a long enough password 42' }

/** A database `serve` children run on; its first start creates the organization and ADMIN. */
export interface ServeDatabase {
  env: Record<string, string>
  /** The SQLite file, on SQLite. */
  sqlitePath?: string
  drop(): Promise<void>
}

export async function serveDatabase(kind: DatabaseKind): Promise<ServeDatabase> {
  const env = { LOG_LEVEL: 'warn', INTAKE_ADMIN_EMAIL: ADMIN.email, INTAKE_ADMIN_PASSWORD: ADMIN.password }
  if (kind === 'postgres') {
    const database = await createTestDatabase()
    const secrets = { JWT_SECRET: randomBytes(32).toString('hex'), DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex') }
    return { env: { ...env, ...secrets, DATABASE_URL: database.url }, drop: database.drop }
  }
  const dir = mkdtempSync(join(tmpdir(), 'intake-reliability-'))
  const sqlitePath = join(dir, 'intake.sqlite')
  return {
    env: { ...env, DATABASE_URL: `sqlite:${sqlitePath}` },
    sqlitePath,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  }
}

/**
 * A client of `serve` acting as ADMIN, and the organization's default partner (where needs go). It logs in
 * unless given the access token of an earlier login (still valid after a restart: same secrets, same session).
 */
export async function adminOf(serve: ServeProcess, token?: string): Promise<{ api: ApiClient; partnerId: string; organizationId: string }> {
  const api = new ApiClient(serve.url)
  if (token) api.token = token
  else await api.login(ADMIN.email, ADMIN.password)
  const [partner] = await api.expect<Array<{ id: string; organizationId: string }>>(200, 'GET', '/api/partners')
  return { api, partnerId: partner!.id, organizationId: partner!.organizationId }
}

/** Every id a paged list answers (`/api/needs`, `/api/constituents`), read 100 at a time. */
export async function allIds(api: ApiClient, path: string): Promise<Set<string>> {
  const ids = new Set<string>()
  for (let page = 1; ; page++) {
    const items = await api.expect<Array<{ id: string }>>(200, 'GET', `${path}?limit=100&page=${page}`)
    for (const item of items) ids.add(item.id)
    if (items.length < 100) return ids
  }
}

/** Writes answered 2xx, by the list that must show them afterwards. */
export interface Acknowledged {
  needs: string[]
  constituents: string[]
}

/** Which of the acknowledged writes the service does not show now. */
export async function missing(api: ApiClient, acknowledged: Acknowledged): Promise<string[]> {
  const [needs, constituents] = await Promise.all([allIds(api, '/api/needs'), allIds(api, '/api/constituents')])
  return [...acknowledged.needs.filter((id) => !needs.has(id)), ...acknowledged.constituents.filter((id) => !constituents.has(id))]
}

/** The resident memory of a process, in KiB (Linux: /proc). */
export function rssKib(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  if (!line) throw new Error(`no VmRSS for process ${pid}`)
  return Number(line[1])
}

/** What a crowd of clients saw: statuses (or `network` when no answer came), latencies, acknowledged writes. */
export class Tally {
  readonly statuses: Record<string, number> = {}
  readonly latenciesMs: number[] = []
  readonly acknowledged: Acknowledged = { needs: [], constituents: [] }

  get requests(): number {
    return Object.values(this.statuses).reduce((sum, n) => sum + n, 0)
  }

  count(status: number | 'network', ms?: number): void {
    this.statuses[status] = (this.statuses[status] ?? 0) + 1
    if (ms !== undefined) this.latenciesMs.push(ms)
  }

  /** Statuses other than 2xx and those in `allowed`. */
  unexpected(allowed: Array<number | 'network'> = []): Record<string, number> {
    return Object.fromEntries(
      Object.entries(this.statuses).filter(([status]) => !/^2\d\d$/.test(status) && !allowed.map(String).includes(status)),
    )
  }

  percentileMs(p: number): number {
    const sorted = [...this.latenciesMs].sort((a, b) => a - b)
    return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0
  }
}

/** One request of the mix: the call, and what to remember when it is answered 2xx. */
interface Step {
  method: string
  path: string
  body?: unknown
  /** The acknowledged list a 2xx answer's id goes to. */
  records?: keyof Acknowledged
}

/**
 * A caseworker's mix: mostly creating needs and constituents (writes, remembered when acknowledged), reading
 * them back, listing and searching; and, with `publicIntake`, anonymous intake, limited per address (429s).
 */
function nextStep(target: { partnerId: string; organizationId: string }, tally: Tally, n: number, publicIntake: boolean): Step {
  const needs = tally.acknowledged.needs
  switch (n % 10) {
    case 0:
    case 1:
    case 2:
      return {
        method: 'POST',
        path: '/api/needs',
        body: { partnerId: target.partnerId, customFields: { description: `load ${n}` } },
        records: 'needs',
      }
    case 3:
      return {
        method: 'POST',
        path: '/api/constituents',
        body: { firstName: 'Load', lastName: `Client${n}`, phone: `+1555${String(n % 1e7).padStart(7, '0')}` },
        records: 'constituents',
      }
    case 4:
    case 5:
      return needs.length ? { method: 'GET', path: `/api/needs/${needs[n % needs.length]}` } : { method: 'GET', path: '/api/needs' }
    case 6:
    case 7:
      return { method: 'GET', path: '/api/needs?limit=25' }
    case 8:
      return { method: 'GET', path: `/api/constituents?query=Client${n % 100}` }
    default:
      return publicIntake
        ? { method: 'POST', path: '/api/needs/public', body: { organizationId: target.organizationId, description: 'I need food' } }
        : { method: 'GET', path: '/api/partners' }
  }
}

/**
 * `clients` loops, each sending one request after another as ADMIN until `stop()` answers true; every
 * answer is counted in `tally`. A request that gets no answer (the server was killed) counts as `network`.
 */
export async function crowd(
  api: ApiClient,
  target: { partnerId: string; organizationId: string },
  options: { clients: number; tally: Tally; stop: () => boolean; publicIntake?: boolean },
): Promise<void> {
  const { tally } = options
  let sent = 0
  const client = async () => {
    while (!options.stop()) {
      const step = nextStep(target, tally, sent++, options.publicIntake ?? false)
      const started = performance.now()
      const answer = await api.call<{ id?: string }>(step.method, step.path, step.body).catch(() => undefined)
      if (!answer) {
        tally.count('network')
        continue
      }
      tally.count(answer.status, performance.now() - started)
      if (step.records && answer.status < 300 && answer.body?.id) tally.acknowledged[step.records].push(answer.body.id)
    }
  }
  await Promise.all(Array.from({ length: options.clients }, client))
}
