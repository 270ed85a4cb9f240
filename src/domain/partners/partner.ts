import { ConflictError } from '../errors'

// docs/api.md
export interface Partner {
  id: string
  organizationId: string
  name: string
  slaHours: number
  isArchived: boolean
  isDefault: boolean
  description?: string
  keywords?: string[]
  website?: string
  publicCategoryName?: string
  createdAt: Date
}

export const SLA_HOURS = { min: 1, max: 8760 } as const

/** Rules every saved partner keeps: the default partner is never archived. */
export function assertPartnerConsistent(partner: Partner): void {
  if (partner.isDefault && partner.isArchived) {
    throw new ConflictError('The default partner cannot be archived; make another partner the default first')
  }
}
