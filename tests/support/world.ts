import type { Container } from 'inversify'
import { Argon2PasswordHasher } from '../../src/adapters/security/argon2-password-hasher'
import type { Repositories } from '../../src/application/ports/repositories'
import type { UseCases } from '../../src/application/use-cases'
import type { Actor } from '../../src/domain/auth/actor'
import type { Profile, Role } from '../../src/domain/auth/roles'
import type { Member } from '../../src/domain/members/member'
import type { Partner } from '../../src/domain/partners/partner'
import { loadConfig, type Config } from '../../src/main/config'
import { createContainer, PORTS, useCasesOf } from '../../src/main/container'
import { actorFor, aMember, aPartner } from './builders'
import { FixedClock } from './fixed-clock'

/** argon2id at the lowest cost: real hashing, test speed. */
export const cheapPasswords = () => new Argon2PasswordHasher({ memoryCost: 64, timeCost: 1 })

export const TEST_PASSWORD = 'correct horse battery staple'

export function testConfig(env: Record<string, string> = {}): Config {
  // Every answer checked against its schema: the service does not check them (docs/performance.md).
  return loadConfig({ DATABASE_URL: 'memory:', LOG_LEVEL: 'silent', CHECK_ANSWERS: 'true', ...env })
}

/** One organization, seen through a container with in-memory adapters and a fixed clock. */
export interface World {
  container: Container
  /** The use cases, as the edges are handed them. */
  useCases: UseCases
  clock: FixedClock
  repositories: Repositories
  organizationId: string
  defaultPartner: Partner
  admin: Actor
  /** Adds a partner to the organization. */
  partner(overrides?: Partial<Partner>): Promise<Partner>
  /** Adds a confirmed member and answers the actor it acts as. */
  member(role: Role, options?: { partnerId?: string; profiles?: Profile[] } & Partial<Member>): Promise<Actor>
  /** Another organization in the same store, for isolation tests. */
  otherOrganization(): Promise<World>
}

export async function createWorld(config: Config = testConfig(), container?: Container, clock = new FixedClock()): Promise<World> {
  const c = container ?? createContainer(config, { clock, passwords: cheapPasswords() })
  const repositories = c.get(PORTS.repositories)
  const unitOfWork = c.get(PORTS.unitOfWork)
  const suffix = crypto.randomUUID().slice(0, 8)
  const created = await useCasesOf(c).operations.createOrganization.execute({
    name: `Org ${suffix}`,
    slug: `org-${suffix}`,
    adminEmail: `admin-${suffix}@example.org`,
    adminPassword: TEST_PASSWORD,
  })
  const admin = await repositories.members.findById(created.organizationId, created.adminMemberId)
  const defaultPartner = await repositories.partners.findById(created.organizationId, created.defaultPartnerId)
  return {
    container: c,
    useCases: useCasesOf(c),
    clock,
    repositories,
    organizationId: created.organizationId,
    defaultPartner: defaultPartner!,
    admin: actorFor(admin!),
    async partner(overrides = {}) {
      const partner = aPartner({ organizationId: created.organizationId, createdAt: clock.now(), ...overrides })
      await unitOfWork.run((r) => r.partners.insert(partner))
      return partner
    },
    async member(role, options = {}) {
      const member = aMember({ organizationId: created.organizationId, role, profiles: [], ...options })
      await unitOfWork.run((r) => r.members.insert(member))
      return actorFor(member)
    },
    otherOrganization: () => createWorld(config, c, clock),
  }
}
