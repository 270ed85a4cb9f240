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
