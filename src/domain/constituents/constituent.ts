import type { ContactDetails } from './contact'

// every constituent belongs to exactly one household
export interface Constituent extends ContactDetails {
  id: string
  organizationId: string
  householdId: string
  createdAt: Date
  updatedAt: Date
}

export interface Household {
  id: string
  organizationId: string
  createdAt: Date
}
