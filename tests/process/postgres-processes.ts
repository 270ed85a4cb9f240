import { createServer } from 'node:net'
import { join } from 'node:path'
import { ApiClient, runCli, type ServeProcess } from './cli-process'

// What the PostgreSQL process tests share: the organization they create, the secrets every instance
// shares, and throwaway clusters of their own (for the tests that stop PostgreSQL).

export const ADMIN = { email: 'admin@instances.example.org', password: 'a long enough password 42' }
export const ORG = 'instances'
/** The same secrets in every process, so a token issued by one is accepted by the other. */
const SECRETS = {
  JWT_SECRET: 'process-test-jwt-secret-that-is-long-enough-0123456789',
  DATA_ENCRYPTION_KEY: '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
}
const CLUSTER_SCRIPT = join(import.meta.dir, '..', '..', 'scripts', 'pg-test-cluster.sh')

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

/** A TCP port nobody listens on right now, on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/**
 * A PostgreSQL cluster of the test's own (scripts/pg-test-cluster.sh on its own directory and port): stopping
 * the shared one would break the other tests.
 */
export class ThrowawayCluster {
  private constructor(
    private readonly dir: string,
    private readonly port: string,
    readonly url: string,
  ) {}

  static async start(): Promise<ThrowawayCluster> {
    const port = String(await freePort())
    const dir = `/tmp/intake-pg-restart-${crypto.randomUUID().slice(0, 8)}`
    return new ThrowawayCluster(dir, port, await run('start', dir, port))
  }

  /** Stops the server (`pg_ctl stop -m fast`: sessions are ended, transactions rolled back) and keeps its data. */
  async pause(): Promise<void> {
    await run('pause', this.dir, this.port)
  }

  async resume(): Promise<void> {
    await run('resume', this.dir, this.port)
  }

  async remove(): Promise<void> {
    await run('stop', this.dir, this.port)
  }
}

/** Runs the script without blocking the test's event loop: clients go on sending while the server stops. */
async function run(command: 'start' | 'stop' | 'pause' | 'resume', dir: string, port: string): Promise<string> {
  const child = Bun.spawn(['bash', CLUSTER_SCRIPT, command], {
    env: { ...process.env, PG_TEST_DIR: dir, PG_TEST_PORT: port },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [code, stdout, stderr] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()])
  if (code !== 0) throw new Error(`pg-test-cluster.sh ${command} failed (${code}): ${stderr}`)
  return stdout.trim()
}
