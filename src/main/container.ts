import 'reflect-metadata'
import { Container } from 'inversify'
import { PrometheusMetrics } from '../adapters/metrics/prometheus-metrics'
import { MemoryPersistence } from '../adapters/persistence/memory/memory-persistence'
import { PostgresDatabase } from '../adapters/persistence/postgres/postgres-database'
import { SqliteDatabase } from '../adapters/persistence/sqlite/sqlite-database'
import { Argon2PasswordHasher } from '../adapters/security/argon2-password-hasher'
import { PinoLogger } from '../adapters/system/pino-logger'
import { accessLogThrough } from '../adapters/http/observability'
import { RandomIds } from '../adapters/system/random-ids'
import { SystemClock } from '../adapters/system/system-clock'
import type { Clock } from '../application/ports/clock'
import type { FallbackEmailSender } from '../application/ports/email'
import type { IdGenerator } from '../application/ports/ids'
import type { Logger } from '../application/ports/logger'
import type { PasswordHasher } from '../application/ports/password-hasher'
import type { Persistence } from '../application/ports/persistence'
import type { UseCases } from '../application/use-cases'
import type { Area } from './composition/area'
import { audit } from './composition/audit'
import { auth } from './composition/auth'
import { constituents } from './composition/constituents'
import { members } from './composition/members'
import { messaging } from './composition/messaging'
import { needs } from './composition/needs'
import { operations } from './composition/operations'
import { organizations } from './composition/organizations'
import { partners } from './composition/partners'
import { PORTS } from './composition/ports'
import { reports } from './composition/reports'
import { security } from './composition/security'
import { services } from './composition/services'
import { sms } from './composition/sms'
import { webhooks } from './composition/webhooks'
import { federation } from './composition/federation'
import { referrals } from './composition/referrals'
import type { Config } from './config'

// The CLI and tests reach ports through the container.
export { PORTS }

/** Each area of `UseCases` and the module that binds it (src/main/composition). */
const AREAS: { [K in keyof UseCases]: Area<K> } = {
  audit,
  auth,
  constituents,
  members,
  needs,
  operations,
  organizations,
  partners,
  reports,
  services,
  sms,
  webhooks,
  federation,
  referrals,
}

/** What tests may swap: a fixed clock, predictable ids, cheap password hashing, captured logs and mail. */
export interface ContainerOverrides {
  clock?: Clock
  ids?: IdGenerator
  passwords?: PasswordHasher
  logger?: Logger
  /** Where mail goes without email settings: tests keep it to read its links, which the log fallback never writes. */
  fallbackEmail?: FallbackEmailSender
}

/** The configured database, not yet migrated (see Persistence.migrate). */
export function createPersistence(config: Config, logger: Logger): Persistence {
  switch (config.database.kind) {
    case 'memory':
      return new MemoryPersistence()
    case 'sqlite':
      return new SqliteDatabase(config.database.path, { logger })
    case 'postgres':
      return new PostgresDatabase(config.database.url, { logger, queryTimeoutMs: config.database.queryTimeoutMs })
  }
}

/** Binds what every area shares (configuration, clock, ids, logs, passwords, the database), then loads the areas' modules. */
export function createContainer(config: Config, overrides: ContainerOverrides = {}): Container {
  const c = new Container({ defaultScope: 'Singleton' })
  const clock = overrides.clock ?? new SystemClock()
  const logger = overrides.logger ?? new PinoLogger(config.logLevel)
  const persistence = createPersistence(config, logger)
  c.bind(PORTS.config).toConstantValue(config)
  c.bind(PORTS.clock).toConstantValue(clock)
  c.bind(PORTS.ids).toConstantValue(overrides.ids ?? new RandomIds(clock))
  c.bind(PORTS.logger).toConstantValue(logger)
  // The service's own logger writes the access line its fastest way; a logger given by a test, as any line.
  c.bind(PORTS.accessLog).toConstantValue(logger instanceof PinoLogger ? logger : accessLogThrough(logger))
  c.bind(PORTS.passwords).toConstantValue(overrides.passwords ?? new Argon2PasswordHasher())
  c.bind(PORTS.persistence).toConstantValue(persistence)
  c.bind(PORTS.repositories).toConstantValue(persistence.repositories)
  c.bind(PORTS.unitOfWork).toConstantValue(persistence.unitOfWork)
  const walBytes = persistence instanceof SqliteDatabase ? () => persistence.walBytes() : undefined // the SQLite log's gauge
  c.bind(PORTS.metrics).toConstantValue(new PrometheusMetrics(() => persistence.repositories.outbox.backlog(), walBytes))
  c.load(...[security, messaging, ...Object.values(AREAS).map((area) => area.module)].map((module) => module(config)))
  if (overrides.fallbackEmail) c.rebind(PORTS.fallbackEmail).toConstantValue(overrides.fallbackEmail)
  return c
}

/** Every use case the edges need, resolved once, by area. */
export function useCasesOf(c: Container): UseCases {
  const useCases: Partial<Record<keyof UseCases, unknown>> = {}
  for (const name of Object.keys(AREAS) as Array<keyof UseCases>) useCases[name] = c.get<unknown>(AREAS[name].useCases)
  return useCases as UseCases // complete: AREAS names every part, each with the area that yields it
}
