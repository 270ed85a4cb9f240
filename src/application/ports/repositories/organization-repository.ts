import type { DigestSchedule } from '../../../domain/organizations/digest-schedule'
import type { Organization } from '../../../domain/organizations/organization'

export interface OrganizationRepository {
  /** A slug another organization holds now or held once is a ConflictError. */
  insert(organization: Organization): Promise<void>
  findById(id: string): Promise<Organization | undefined>
  /** The organization whose slug this is now. */
  findBySlug(slug: string): Promise<Organization | undefined>
  /** The organization whose slug this is now or was once: a former slug stays its organization's (old links). */
  findByAnySlug(slug: string): Promise<Organization | undefined>
  /** The organization whose SMS number this is (inbound messages). */
  findByPhoneNumber(phoneNumber: string): Promise<Organization | undefined>
  findByShortCode(shortCode: string): Promise<Organization | undefined>
  count(): Promise<number>
  /**
   * Saves name, slug, short code, concurrency, registration status, phone number; a taken one is a ConflictError.
   * A slug is taken while another organization holds it now or held it once; the one left is kept as the organization's.
   */
  update(organization: Organization): Promise<void>
  /**
   * Holds the organization's row until the transaction ends, so what is counted next (its live claims, its
   * admins) cannot change under a concurrent transaction. A no-op where transactions are serial already.
   */
  lockForUpdate(id: string): Promise<void>
  /** Every organization with the retention it chose (absent: the default), for the audit purge. */
  auditRetentions(): Promise<Array<{ organizationId: string; auditRetentionDays?: number }>>
  /** The organizations that chose a retention of people or of needs' text (docs/privacy.md), with it. */
  dataRetentions(): Promise<DataRetention[]>
  /**
   * Takes the organization's retention run at `at` unless a run was taken after `lastRunBefore`: of workers
   * asking at once, one gets true (one conditional write), the others false.
   */
  claimRetentionRun(organizationId: string, at: Date, lastRunBefore: Date): Promise<boolean>
  /** Every organization with the hour and time zone of its daily digest (absent: the defaults). */
  digestSchedules(): Promise<Array<{ organizationId: string } & DigestSchedule>>
}

export type DataRetention = { organizationId: string } & Pick<Organization, 'constituentRetentionDays' | 'needTextRetentionDays'>
