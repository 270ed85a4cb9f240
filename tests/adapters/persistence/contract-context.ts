import type { Persistence } from '../../../src/application/ports/persistence'
import type { Repositories } from '../../../src/application/ports/repositories'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import type { Member } from '../../../src/domain/members/member'
import type { Need } from '../../../src/domain/needs/need'
import type { Organization } from '../../../src/domain/organizations/organization'
import type { Partner } from '../../../src/domain/partners/partner'
import { aConstituent, aHousehold, aMember, anOrganization, aPartner } from '../../support/builders'
import { minute } from './contract-support'

export interface RepositoryFixture {
  persistence: Persistence
  cleanup(): Promise<void>
}

/**
 * What each part of the repository contract works with. Writes go through `unitOfWork.run`, reads of
 * committed data through `persistence.repositories`. One store serves the whole suite, so every test works
 * in organizations (and emails, token hashes) of its own.
 */
export interface ContractContext {
  persistence(): Persistence
  read(): Repositories
  write<T>(work: (r: Repositories) => Promise<T>): Promise<T>
  /** An organization with its default partner, committed. */
  anOrganizationWithPartner(overrides?: Partial<Organization>): Promise<{ organization: Organization; partner: Partner }>
  aMemberOf(organizationId: string, overrides?: Partial<Member>): Promise<Member>
  /** A constituent in a household of its own, both written through the ports. */
  aConstituentOf(organizationId: string): Promise<{ householdId: string; constituentId: string }>
  /** Constituents of the organization, all in one household, committed. */
  insertConstituents(organizationId: string, ...overrides: Array<Partial<Constituent>>): Promise<Constituent[]>
  insertNeeds(...needs: Need[]): Promise<void>
  /** A fresh, empty store of the same adapter, for tests that read across organizations (the outbox). */
  make(): Promise<RepositoryFixture>
}

/** The context over the store `fixture()` answers once the suite has made it. */
export function contractContext(fixture: () => RepositoryFixture, make: () => Promise<RepositoryFixture>): ContractContext {
  const persistence = () => fixture().persistence
  const write = <T>(work: (r: Repositories) => Promise<T>): Promise<T> => persistence().unitOfWork.run(work)
  return {
    persistence,
    read: () => persistence().repositories,
    write,
    make,
    async anOrganizationWithPartner(overrides = {}) {
      const organization = anOrganization(overrides)
      const partner = aPartner({ organizationId: organization.id, isDefault: true, createdAt: minute(0) })
      await write(async (r) => {
        await r.organizations.insert(organization)
        await r.partners.insert(partner)
      })
      return { organization, partner }
    },
    async aMemberOf(organizationId, overrides = {}) {
      const member = aMember({ organizationId, ...overrides })
      await write((r) => r.members.insert(member))
      return member
    },
    async aConstituentOf(organizationId) {
      const household = aHousehold({ organizationId })
      const constituent = aConstituent({ organizationId, householdId: household.id, firstName: 'Ana' })
      await write(async (r) => {
        await r.constituents.insertHousehold(household)
        await r.constituents.insert(constituent)
      })
      return { householdId: household.id, constituentId: constituent.id }
    },
    async insertConstituents(organizationId, ...overrides) {
      const household = aHousehold({ organizationId })
      const constituents = overrides.map((o) => aConstituent({ organizationId, householdId: household.id, ...o }))
      await write(async (r) => {
        await r.constituents.insertHousehold(household)
        for (const constituent of constituents) await r.constituents.insert(constituent)
      })
      return constituents
    },
    async insertNeeds(...needs) {
      await write(async (r) => {
        for (const need of needs) await r.needs.insert(need)
      })
    },
  }
}
