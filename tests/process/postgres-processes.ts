import { ApiClient, runCli, type ServeProcess } from './cli-process'

// What the PostgreSQL process tests share: the organization they create, the secrets every instance
// shares. Throwaway clusters of their own, for the tests that stop PostgreSQL: tests/support/throwaway-cluster.ts.

export const ADMIN = { email: 'admin@instances.example.org', password: 'a long enough password 42' }
export const ORG = 'instances'
/** The same secrets in every process, so a token issued by one is accepted by the other. */
const SECRETS = {
  JWT_SECRET: 'process-test-jwt-secret-that-is-long-enough-0123456789',
  DATA_ENCRYPTION_KEY: '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
}

/** The environment of every child on `databaseUrl`: PostgreSQL, shared secrets, quiet logs. */
export function baseEnv(databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  // Hundreds of texts from one admin to one number: the limits on texts have their own tests.
  return {
    DATABASE_URL: databaseUrl,
    ...SECRETS,
    LOG_LEVEL: 'warn',
    SMS_PER_RECIPIENT_PER_HOUR: '100000',
    SMS_PER_MEMBER_PER_HOUR: '100000',
    ...extra,
  }
}

/** Runs one CLI command; throws with its output unless it succeeds. */
export async function cli(args: string[], env: Record<string, string>): Promise<void> {
  const result = await runCli(args, env, 30_000)
  if (result.code !== 0) throw new Error(`intake ${args.join(' ')} failed (${result.code}):\n${result.output}`)
}

/** Creates the test's organization and its admin through the CLI (which also migrates the database). */
export function createOrganization(env: Record<string, string>): Promise<void> {
  return cli(['org', 'create', '--name', 'Instances', '--slug', ORG, '--admin-email', ADMIN.email, '--admin-password', ADMIN.password], env)
}

/** Clients for each server sharing one access token (issued by the first). */
export async function clientsFor(servers: ServeProcess[]): Promise<ApiClient[]> {
  const clients = servers.map((s) => new ApiClient(s.url))
  await clients[0]!.login(ADMIN.email, ADMIN.password)
  for (const client of clients.slice(1)) client.token = clients[0]!.token
  return clients
}

/** Runs `count` jobs, `inFlight` at a time, in order of their index. */
export async function inWaves<T>(count: number, inFlight: number, job: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count)
  let next = 0
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        const i = next++
        results[i] = await job(i)
      }
    }),
  )
  return results
}

/** What one create through a server was answered, in which phase of the test, and how long it took. */
export interface Answer {
  phase: string
  server: number
  status: number | 'no answer'
  ms: number
  id?: string
  referenceNumber?: string
  detail?: string
}

/**
 * `count` clients creating needs through the servers in turn until stopped, each answer timed. `giveUpMs`: an
 * answer later than that counts as none; `restMs`: how long a client waits after an answer other than 201.
 */
export function writers(clients: ApiClient[], partnerId: string, count: number, { giveUpMs = 60_000, restMs = 0 } = {}) {
  let phase = 'before'
  let running = true
  const answers: Answer[] = []
  const create = async (server: number): Promise<Omit<Answer, 'phase' | 'server' | 'ms'>> => {
    const response = await fetch(`${clients[server]!.baseUrl}/api/needs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${clients[server]!.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ partnerId }),
      signal: AbortSignal.timeout(giveUpMs),
    })
    const body = (await response.json().catch(() => ({}))) as Pick<Answer, 'id' | 'referenceNumber' | 'detail'>
    return { status: response.status, id: body.id, referenceNumber: body.referenceNumber, detail: body.detail }
  }
  const done = Promise.all(
    Array.from({ length: count }, async (_, writer) => {
      for (let i = writer; running; i += count) {
        const server = i % clients.length
        const started = performance.now()
        const answer = await create(server).catch(() => ({ status: 'no answer' as const }))
        answers.push({ phase, server, ms: performance.now() - started, ...answer })
        if (answer.status !== 201 && restMs > 0) await Bun.sleep(restMs)
      }
    }),
  )
  return {
    answers,
    count: (which: string, status: number | 'no answer', server?: number) =>
      answers.filter((a) => a.phase === which && a.status === status && (server === undefined || a.server === server)).length,
    enter(next: string) {
      phase = next
    },
    async stop() {
      running = false
      await done
    },
  }
}
