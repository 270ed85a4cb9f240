import type { Partner } from '../../../domain/partners/partner'

export interface PartnerRepository {
  insert(partner: Partner): Promise<void>
  update(partner: Partner): Promise<void>
  findById(organizationId: string, id: string): Promise<Partner | undefined>
  /** Every partner of the organization, oldest first (routing order). */
  listAll(organizationId: string): Promise<Partner[]>
  /** Clears `isDefault` on every partner of the organization but `keepId`. */
  clearDefaultExcept(organizationId: string, keepId: string): Promise<void>
}
