import type { Need } from '../../../domain/needs/need'

/**
 * What the daily digest reads, and the per-member date that makes it one a day (docs/api/organization.md "Notifications").
 * A date (`YYYY-MM-DD`) is the organization's local one; dates compare as text.
 */
export interface DailyDigestRepository {
  /** The ids of the organization's members not deactivated whose digest of `localDate`, or of a later date, is not taken. */
  membersDue(organizationId: string, localDate: string): Promise<string[]>
  /**
   * Takes the member's digest of `localDate`: true once per member and date, false when that date or a later
   * one is taken (by this transaction's rivals too: the write waits for theirs and sees what they committed).
   */
  take(organizationId: string, memberId: string, localDate: string): Promise<boolean>
  /** Up to `limit` needs assigned to the member that are overdue at `now` (`isOverdue`), earliest due first. */
  overdueAssignedTo(organizationId: string, memberId: string, now: Date, limit: number): Promise<Need[]>
  /** Up to `limit` open needs assigned to nobody, of one partner or (`undefined`) the whole organization, oldest first. */
  unassignedOpen(organizationId: string, partnerId: string | undefined, limit: number): Promise<Need[]>
}
