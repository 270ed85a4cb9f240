import { randomBytes } from 'node:crypto'
import { closeSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { DEFAULT_QUERY_TIMEOUT_MS } from '../adapters/persistence/postgres/postgres-database'
import { LOG_LEVELS, type LogLevel } from '../adapters/system/pino-logger'
import { makePrivateFolder, openPrivateFile } from '../adapters/system/private-files'
import type { SendLimits } from '../domain/messaging/send-limits'
import { parseLinkBase } from '../domain/shared/link-base'

/** Everything the service reads from its environment (docs/self-hosting.md), validated once at start. */
export interface Config {
  port: number
  host: string
  /** `memory:` keeps everything in the process (tests, trying it out). */
  database: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; queryTimeoutMs: number } | { kind: 'memory' }
  jwtSecret: string
  /** 32 bytes. */
  dataEncryptionKey: Buffer
  sms: { provider: 'log' | 'twilio'; accountSid?: string; authToken?: string; apiBaseUrl?: string }
  emailFallback: 'log'
  /** EMAIL_ALLOWED_HOSTS: the only SMTP hosts organizations may name (lower-case); empty, any. */
  emailAllowedHosts: string[]
  /** EMAIL_BLOCK_PRIVATE_HOSTS: refuse SMTP hosts that are or resolve to loopback, private, link-local… addresses. */
  emailBlockPrivateHosts: boolean
  /** WEBHOOK_ALLOWED_HOSTS and WEBHOOK_BLOCK_PRIVATE_HOSTS: the same rules for webhook endpoints (docs/events.md). */
  webhookAllowedHosts: string[]
  webhookBlockPrivateHosts: boolean
  publicIntakeRateLimit: number
  /** Requests of a published HSDS directory (docs/directory.md) per client address per minute. */
  publicDirectoryRateLimit: number
  /** Login, refresh and accept-invite requests per client address per minute. */
  authRateLimit: number
  /** FEDERATION_RATE_LIMIT: requests to /federation/v1/* per client address per minute (docs/referrals.md). */
  federationRateLimit: number
  /**
   * What one person can make the service send, or be sent, per hour: reset links, texts, confirmations
   * (docs/api/access.md "Tokens", docs/api/organization.md "SMS", docs/api/needs.md "Public intake").
   */
  sendLimits: SendLimits
  /** How long the outbox worker rests when it finds nothing to send. */
  outboxPollMs: number
  /** How long a worker's claim on a message holds; must exceed a provider call (15 s) in production. */
  outboxLeaseMs: number
  /** Whether `serve` also runs the outbox worker (false when `intake worker` runs apart). */
  serveRunsWorker: boolean
  /**
   * SHUTDOWN_DRAIN_MS: after SIGTERM, how long `serve` goes on answering (each answer closing its connection,
   * /readyz 503) before it stops listening, so clients on kept-alive connections get answers, not resets.
   */
  shutdownDrainMs: number
  /** Trust X-Forwarded-For for client addresses (only behind a proxy that sets it). */
  trustProxy: boolean
  publicBaseUrl: string
  logLevel: LogLevel
  /** METRICS_TOKEN: when set, GET /metrics needs it as a bearer token. */
  metricsToken?: string
  /** CHECK_ANSWERS: every answer checked against its route's schema, as the tests run (docs/performance.md). */
  checkAnswers: boolean
  bootstrap: { adminEmail?: string; adminPassword?: string; orgName?: string; orgSlug?: string }
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable} ${problem}`)
  }
}

type Env = Record<string, string | undefined>

export function loadConfig(env: Env = process.env): Config {
  const database = loadDatabaseConfig(env)
  const port = integer(env, 'PORT', 3000, 0, 65535)
  const sms = choice(env, 'SMS_PROVIDER', ['log', 'twilio'] as const, 'log')
  if (sms === 'twilio') {
    for (const name of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'])
      if (!env[name]) throw new ConfigError(name, 'is required when SMS_PROVIDER=twilio')
  }
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    database,
    jwtSecret: secret(env, 'JWT_SECRET', database, parseJwtSecret, () => randomBytes(48).toString('base64url')),
    dataEncryptionKey: secret(env, 'DATA_ENCRYPTION_KEY', database, parseEncryptionKey, () => randomBytes(32).toString('hex')),
    sms: {
      provider: sms,
      ...(env.TWILIO_ACCOUNT_SID ? { accountSid: env.TWILIO_ACCOUNT_SID } : {}),
      ...(env.TWILIO_AUTH_TOKEN ? { authToken: env.TWILIO_AUTH_TOKEN } : {}),
      ...(env.TWILIO_API_BASE_URL ? { apiBaseUrl: url(env, 'TWILIO_API_BASE_URL') } : {}),
    },
    emailFallback: choice(env, 'EMAIL_FALLBACK', ['log'] as const, 'log'),
    emailAllowedHosts: hostList(env, 'EMAIL_ALLOWED_HOSTS'),
    emailBlockPrivateHosts: choice(env, 'EMAIL_BLOCK_PRIVATE_HOSTS', ['true', 'false'] as const, 'false') === 'true',
    webhookAllowedHosts: hostList(env, 'WEBHOOK_ALLOWED_HOSTS'),
    webhookBlockPrivateHosts: choice(env, 'WEBHOOK_BLOCK_PRIVATE_HOSTS', ['true', 'false'] as const, 'false') === 'true',
    publicIntakeRateLimit: integer(env, 'PUBLIC_INTAKE_RATE_LIMIT', 20, 1, 1_000_000),
    authRateLimit: integer(env, 'AUTH_RATE_LIMIT', 60, 1, 1_000_000),
    federationRateLimit: integer(env, 'FEDERATION_RATE_LIMIT', 600, 1, 1_000_000),
    publicDirectoryRateLimit: integer(env, 'PUBLIC_DIRECTORY_RATE_LIMIT', 600, 1, 1_000_000),
    sendLimits: {
      passwordResetMailsPerHour: integer(env, 'PASSWORD_RESET_MAILS_PER_HOUR', 3, 1, 1000),
      smsPerRecipientPerHour: integer(env, 'SMS_PER_RECIPIENT_PER_HOUR', 10, 1, 100_000),
      smsPerMemberPerHour: integer(env, 'SMS_PER_MEMBER_PER_HOUR', 200, 1, 100_000),
      recipientMessagesPerHour: integer(env, 'RECIPIENT_MESSAGES_PER_HOUR', 10, 1, 100_000),
    },
    outboxPollMs: integer(env, 'OUTBOX_POLL_MS', 1000, 10, 600_000),
    outboxLeaseMs: integer(env, 'OUTBOX_LEASE_MS', 60_000, 1000, 3_600_000),
    serveRunsWorker: choice(env, 'SERVE_RUNS_WORKER', ['true', 'false'] as const, 'true') === 'true',
    shutdownDrainMs: integer(env, 'SHUTDOWN_DRAIN_MS', 1000, 0, 60_000),
    trustProxy: choice(env, 'TRUST_PROXY', ['true', 'false'] as const, 'false') === 'true',
    publicBaseUrl: env.PUBLIC_BASE_URL ? linkBase(env, 'PUBLIC_BASE_URL') : `http://localhost:${port}`,
    logLevel: choice(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    ...(env.METRICS_TOKEN ? { metricsToken: metricsToken(env.METRICS_TOKEN) } : {}),
    checkAnswers: choice(env, 'CHECK_ANSWERS', ['true', 'false'] as const, 'false') === 'true',
    bootstrap: {
      ...(env.INTAKE_ADMIN_EMAIL ? { adminEmail: env.INTAKE_ADMIN_EMAIL } : {}),
      ...(env.INTAKE_ADMIN_PASSWORD ? { adminPassword: env.INTAKE_ADMIN_PASSWORD } : {}),
      ...(env.INTAKE_ORG_NAME ? { orgName: env.INTAKE_ORG_NAME } : {}),
      ...(env.INTAKE_ORG_SLUG ? { orgSlug: env.INTAKE_ORG_SLUG } : {}),
    },
  }
}

/** Only DATABASE_URL: what `backup` and `restore` need, without generating secrets as a start does. */
export function loadDatabaseConfig(env: Env = process.env): Config['database'] {
  return parseDatabaseUrl(env.DATABASE_URL ?? 'sqlite:./data/intake.sqlite', env)
}

function parseDatabaseUrl(value: string, env: Env): Config['database'] {
  if (value === 'memory:') return { kind: 'memory' }
  if (value === 'sqlite::memory:') return { kind: 'sqlite', path: ':memory:' }
  if (value.startsWith('sqlite:')) {
    const path = value.slice('sqlite:'.length)
    if (!path) throw new ConfigError('DATABASE_URL', 'needs a file path after sqlite:')
    return { kind: 'sqlite', path }
  }
  if (/^postgres(ql)?:\/\//.test(value)) {
    // The service connects to a primary only; `read-write` would refuse every session, since the service's
    // sessions are read-only unless a transaction asks (docs/deploy.md "Failover").
    const attrs = /[?&]target_session_attrs=([^&]*)/.exec(value)?.[1]
    if (attrs !== undefined && attrs !== 'primary')
      throw new ConfigError(
        'DATABASE_URL',
        `may name target_session_attrs=primary only (it names ${attrs}); the service always connects to a primary`,
      )
    return {
      kind: 'postgres',
      url: value,
      queryTimeoutMs: integer(env, 'DATABASE_QUERY_TIMEOUT_MS', DEFAULT_QUERY_TIMEOUT_MS, 100, 600_000),
    }
  }
  throw new ConfigError('DATABASE_URL', 'must be sqlite:<path>, sqlite::memory:, memory: or postgres://…')
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(name, `must be a whole number from ${min} to ${max}`)
  return value
}

function choice<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!allowed.includes(raw as T)) throw new ConfigError(name, `must be one of ${allowed.join(', ')}`)
  return raw as T
}

/** Long enough that guessing it is hopeless: it guards what the service reveals about its load. */
function metricsToken(value: string): string {
  if (value.length < 16 || !/^[\x21-\x7e]+$/.test(value))
    throw new ConfigError('METRICS_TOKEN', 'must be at least 16 printable characters without spaces')
  return value
}

/** A comma-separated list of host names or IP addresses, lower-cased. */
function hostList(env: Env, name: string): string[] {
  const hosts = (env[name] ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean)
  const bad = hosts.find((h) => !/^[a-z0-9.-]+$/.test(h) && !/^[0-9a-f:.]+$/.test(h))
  if (bad !== undefined) throw new ConfigError(name, `must be host names or IP addresses separated by commas, not ${JSON.stringify(bad)}`)
  return hosts
}

function url(env: Env, name: string): string {
  const raw = env[name] ?? ''
  if (!URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol)) throw new ConfigError(name, 'must be an http(s) URL')
  return raw.replace(/\/+$/, '')
}

/** The base of the links mail carries, under the rule an invitation's `appUrl` meets (docs/api/access.md "Members and invitations"). */
function linkBase(env: Env, name: string): string {
  const parsed = parseLinkBase(env[name] ?? '')
  if ('problem' in parsed) throw new ConfigError(name, parsed.problem)
  return url(env, name)
}

function parseJwtSecret(raw: string): string {
  if (raw.length < 32) throw new Error('must be at least 32 characters')
  return raw
}

function parseEncryptionKey(raw: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64')
  if (key.length !== 32) throw new Error('must be 32 bytes, written as 64 hex characters or as base64')
  return key
}

/**
 * A secret from the environment; with SQLite and none set, one generated on first start and kept beside
 * the database in a file only the owner can read (docs/self-hosting.md). PostgreSQL deployments must set it,
 * since every instance needs the same value.
 */
function secret<T>(env: Env, name: string, database: Config['database'], parse: (raw: string) => T, generate: () => string): T {
  let raw = env[name]
  if (!raw && database.kind === 'memory') raw = generate()
  if (!raw && database.kind === 'sqlite') {
    raw = database.path === ':memory:' ? generate() : readOrCreate(join(dirname(database.path), `${name.toLowerCase()}.secret`), generate)
  }
  if (!raw) throw new ConfigError(name, 'is required with PostgreSQL')
  try {
    return parse(raw)
  } catch (error) {
    throw new ConfigError(name, (error as Error).message)
  }
}

function readOrCreate(file: string, generate: () => string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  const value = generate()
  makePrivateFolder(dirname(file)) // the database's folder too, on a first start
  const fd = openPrivateFile(file)
  try {
    writeFileSync(fd, `${value}\n`)
  } finally {
    closeSync(fd)
  }
  return value
}
