import type { ContactDetails } from './contact'

// every constituent belongs to exactly one household
export interface Constituent extends ContactDetails {
  id: string
  organizationId: string
  householdId: string
  createdAt: Date
  updatedAt: Date
  /** When the person's details were erased (docs/privacy.md): the record stays, with none of them. */
  erasedAt?: Date
}

export interface Household {
  id: string
  organizationId: string
  createdAt: Date
}
