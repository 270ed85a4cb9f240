import type { Constituent, Household } from '../../../src/domain/constituents/constituent'
import { aConstituent, aHousehold } from '../../support/builders'
import type { ContractContext } from './contract-context'

/** The steps of the constituent parts of the contract. */
export function constituentSteps({ write, anOrganizationWithPartner }: ContractContext) {
  async function anOrganizationId() {
    return (await anOrganizationWithPartner()).organization.id
  }

  async function insertHouseholds(...households: Household[]) {
    await write(async (r) => {
      for (const household of households) await r.constituents.insertHousehold(household)
    })
  }

  async function insertConstituents(...constituents: Constituent[]) {
    await write(async (r) => {
      for (const constituent of constituents) await r.constituents.insert(constituent)
    })
  }

  /** A household of the organization, committed, and a builder of constituents living in it. */
  async function aHome(organizationId: string) {
    const household = aHousehold({ organizationId })
    await insertHouseholds(household)
    const member = (overrides: Partial<Constituent> = {}) => aConstituent({ organizationId, householdId: household.id, ...overrides })
    return { household, member }
  }

  return { anOrganizationId, insertHouseholds, insertConstituents, aHome }
}
