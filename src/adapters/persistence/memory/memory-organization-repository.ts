import { UNIQUE_CONFLICTS } from '../../../application/ports/repositories'
import type { OrganizationRepository } from '../../../application/ports/repositories/organization-repository'
import { ConflictError } from '../../../domain/errors'
import { FIRST_REFERENCE_NUMBER } from '../../../domain/needs/need'
import type { Organization } from '../../../domain/organizations/organization'
import { copy, type StoredOrganization } from './memory-store'
import { MemoryRepository } from './memory-repository'

export class MemoryOrganizationRepository extends MemoryRepository implements OrganizationRepository {
  async insert(organization: Organization) {
    this.assertUnique(organization)
    this.t.organizations.set(organization.id, { ...copy(organization), needSequence: FIRST_REFERENCE_NUMBER - 1 })
    this.t.organizationSlugs.set(organization.slug, organization.id)
  }
  async update(organization: Organization) {
    const stored = this.t.organizations.get(organization.id)
    if (!stored) return
    this.assertUnique(organization)
    const { createdAt, needSequence, retentionRanAt } = stored
    this.t.organizationSlugs.set(stored.slug, organization.id)
    this.t.organizationSlugs.set(organization.slug, organization.id)
    this.t.organizations.set(organization.id, {
      ...copy(organization),
      createdAt,
      needSequence,
      ...(retentionRanAt ? { retentionRanAt } : {}),
    })
  }
  /** The unique indexes of the SQL schema, kept here too. */
  private assertUnique(organization: Organization) {
    const holder = this.t.organizationSlugs.get(organization.slug)
    if (holder && holder !== organization.id) throw new ConflictError(UNIQUE_CONFLICTS.organizationSlug)
    for (const other of this.t.organizations.values()) {
      if (other.id === organization.id) continue
      if (other.slug === organization.slug) throw new ConflictError(UNIQUE_CONFLICTS.organizationSlug)
      if (organization.shortCode && other.shortCode === organization.shortCode)
        throw new ConflictError(UNIQUE_CONFLICTS.organizationShortCode)
      if (organization.phoneNumber && other.phoneNumber === organization.phoneNumber) {
        throw new ConflictError(UNIQUE_CONFLICTS.organizationPhoneNumber)
      }
    }
  }
  async findById(id: string) {
    const found = this.t.organizations.get(id)
    return found ? withoutSequence(found) : undefined
  }
  async findBySlug(slug: string) {
    const found = [...this.t.organizations.values()].find((o) => o.slug === slug)
    return found ? withoutSequence(found) : undefined
  }
  async findByAnySlug(slug: string) {
    const holder = this.t.organizationSlugs.get(slug)
    return (await this.findBySlug(slug)) ?? (holder ? this.findById(holder) : undefined)
  }
  async findByPhoneNumber(phoneNumber: string) {
    const found = [...this.t.organizations.values()].find((o) => o.phoneNumber === phoneNumber)
    return found ? withoutSequence(found) : undefined
  }
  async findByShortCode(shortCode: string) {
    const found = [...this.t.organizations.values()].find((o) => o.shortCode === shortCode)
    return found ? withoutSequence(found) : undefined
  }
  /** Memory transactions are serial: nothing to lock. */
  async lockForUpdate() {}
  async count() {
    return this.t.organizations.size
  }
  async auditRetentions() {
    return [...this.t.organizations.values()].map((o) => ({
      organizationId: o.id,
      ...(o.auditRetentionDays !== undefined ? { auditRetentionDays: o.auditRetentionDays } : {}),
    }))
  }
  async dataRetentions() {
    return [...this.t.organizations.values()]
      .filter((o) => o.constituentRetentionDays !== undefined || o.needTextRetentionDays !== undefined)
      .map((o) => ({
        organizationId: o.id,
        ...(o.constituentRetentionDays !== undefined ? { constituentRetentionDays: o.constituentRetentionDays } : {}),
        ...(o.needTextRetentionDays !== undefined ? { needTextRetentionDays: o.needTextRetentionDays } : {}),
      }))
  }
  async claimRetentionRun(organizationId: string, at: Date, lastRunBefore: Date) {
    const organization = this.t.organizations.get(organizationId)
    if (!organization || (organization.retentionRanAt && organization.retentionRanAt > lastRunBefore)) return false
    organization.retentionRanAt = at
    return true
  }
  async digestSchedules() {
    return [...this.t.organizations.values()].map((o) => ({
      organizationId: o.id,
      ...(o.digestHour !== undefined ? { digestHour: o.digestHour } : {}),
      ...(o.timeZone !== undefined ? { timeZone: o.timeZone } : {}),
    }))
  }
}

function withoutSequence({ needSequence: _sequence, retentionRanAt: _ran, ...organization }: StoredOrganization): Organization {
  return copy(organization)
}
