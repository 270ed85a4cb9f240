import 'reflect-metadata'
import { Container, type ServiceIdentifier } from 'inversify'
import { Authenticate } from '../application/auth/authenticate'
import { Login } from '../application/auth/login'
import { Logout } from '../application/auth/logout'
import { RefreshSession } from '../application/auth/refresh-session'
import { TokenPairIssuer } from '../application/auth/token-pair'
import { SetMemberPassword } from '../application/members/set-member-password'
import { AddNote } from '../application/needs/add-note'
import { CreateNeed } from '../application/needs/create-need'
import { GetNeed } from '../application/needs/get-need'
import { ListNeedInteractions } from '../application/needs/list-need-interactions'
import { ListNeeds } from '../application/needs/list-needs'
import { NeedIntake } from '../application/needs/need-intake'
import { SubmitPublicNeed } from '../application/needs/submit-public-need'
import { UpdateNeed } from '../application/needs/update-need'
import { CreateOrganization } from '../application/organizations/create-organization'
import { CreatePartner } from '../application/partners/create-partner'
import { ListPartners } from '../application/partners/list-partners'
import { UpdatePartner } from '../application/partners/update-partner'
import type { Clock } from '../application/ports/clock'
import type { IdGenerator } from '../application/ports/ids'
import type { Logger } from '../application/ports/logger'
import type { Persistence } from '../application/ports/persistence'
import type { Repositories } from '../application/ports/repositories'
import type { AccessTokens, PasswordHasher, RateLimiter, SecretTokens } from '../application/ports/security'
import type { UnitOfWork } from '../application/ports/unit-of-work'
import { MemoryPersistence } from '../adapters/persistence/memory/memory-persistence'
import { SqliteDatabase } from '../adapters/persistence/sqlite/sqlite-database'
import { Argon2PasswordHasher } from '../adapters/security/argon2-password-hasher'
import { HmacAccessTokens } from '../adapters/security/hmac-access-tokens'
import { MemoryRateLimiter } from '../adapters/security/memory-rate-limiter'
import { RandomSecretTokens } from '../adapters/security/random-secret-tokens'
import { JsonLogger } from '../adapters/system/json-logger'
import { RandomIds } from '../adapters/system/random-ids'
import { SystemClock } from '../adapters/system/system-clock'
import type { Config } from './config'

/** Typed names of the ports; the container is the only place that knows which adapter serves each. */
function port<T>(name: string): ServiceIdentifier<T> {
  return Symbol.for(`port:${name}`)
}

export const PORTS = {
  config: port<Config>('Config'),
  clock: port<Clock>('Clock'),
  ids: port<IdGenerator>('IdGenerator'),
  logger: port<Logger>('Logger'),
  persistence: port<Persistence>('Persistence'),
  repositories: port<Repositories>('Repositories'),
  unitOfWork: port<UnitOfWork>('UnitOfWork'),
  passwords: port<PasswordHasher>('PasswordHasher'),
  accessTokens: port<AccessTokens>('AccessTokens'),
  secrets: port<SecretTokens>('SecretTokens'),
  publicIntakeRateLimiter: port<RateLimiter>('PublicIntakeRateLimiter'),
}

/** What tests may swap: a fixed clock, predictable ids, cheap password hashing, captured logs. */
export interface ContainerOverrides {
  clock?: Clock
  ids?: IdGenerator
  passwords?: PasswordHasher
  logger?: Logger
}

export function createPersistence(config: Config): Persistence {
  switch (config.database.kind) {
    case 'memory':
      return new MemoryPersistence()
    case 'sqlite': {
      const database = new SqliteDatabase(config.database.path)
      database.migrate()
      return database
    }
    case 'postgres':
      throw new Error('PostgreSQL is not supported yet: use DATABASE_URL=sqlite:<path>')
  }
}

export function createContainer(config: Config, overrides: ContainerOverrides = {}): Container {
  const c = new Container({ defaultScope: 'Singleton' })
  const clock = overrides.clock ?? new SystemClock()
  const persistence = createPersistence(config)
  c.bind(PORTS.config).toConstantValue(config)
  c.bind(PORTS.clock).toConstantValue(clock)
  c.bind(PORTS.ids).toConstantValue(overrides.ids ?? new RandomIds())
  c.bind(PORTS.logger).toConstantValue(overrides.logger ?? new JsonLogger(config.logLevel))
  c.bind(PORTS.persistence).toConstantValue(persistence)
  c.bind(PORTS.repositories).toConstantValue(persistence.repositories)
  c.bind(PORTS.unitOfWork).toConstantValue(persistence.unitOfWork)
  c.bind(PORTS.passwords).toConstantValue(overrides.passwords ?? new Argon2PasswordHasher())
  c.bind(PORTS.accessTokens).toConstantValue(new HmacAccessTokens(config.jwtSecret, clock))
  c.bind(PORTS.secrets).toConstantValue(new RandomSecretTokens())
  c.bind(PORTS.publicIntakeRateLimiter).toConstantValue(new MemoryRateLimiter(config.publicIntakeRateLimit, clock))

  const { repositories, unitOfWork, passwords, accessTokens, secrets, ids } = PORTS
  service(c, TokenPairIssuer, [accessTokens, secrets, PORTS.clock, ids])
  service(c, NeedIntake, [PORTS.clock, ids])
  service(c, Authenticate, [repositories, accessTokens])
  service(c, Login, [repositories, unitOfWork, passwords, TokenPairIssuer, PORTS.clock])
  service(c, RefreshSession, [unitOfWork, secrets, TokenPairIssuer, PORTS.clock])
  service(c, Logout, [unitOfWork, secrets, PORTS.clock])
  service(c, CreateOrganization, [unitOfWork, passwords, PORTS.clock, ids])
  service(c, SetMemberPassword, [unitOfWork, passwords])
  service(c, CreateNeed, [unitOfWork, NeedIntake])
  service(c, SubmitPublicNeed, [repositories, unitOfWork, NeedIntake])
  service(c, ListNeeds, [repositories])
  service(c, GetNeed, [repositories])
  service(c, UpdateNeed, [unitOfWork, PORTS.clock, ids])
  service(c, AddNote, [unitOfWork, PORTS.clock, ids])
  service(c, ListNeedInteractions, [repositories])
  service(c, ListPartners, [repositories])
  service(c, CreatePartner, [unitOfWork, PORTS.clock, ids])
  service(c, UpdatePartner, [unitOfWork])
  return c
}

/** Binds a use case (or application service) to its constructor, fed with the listed ports. */
function service<T, A extends unknown[]>(
  c: Container,
  type: new (...args: A) => T,
  dependencies: { [K in keyof A]: ServiceIdentifier<A[K]> },
): void {
  c.bind(type).toResolvedValue((...args: A) => new type(...args), dependencies as never)
}
