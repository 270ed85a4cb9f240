import { isPartnerRole } from '../../domain/auth/roles'
import type { Member } from '../../domain/members/member'
import { DEFAULT_TIME_ZONE, dueDigestDate, type DigestSchedule } from '../../domain/organizations/digest-schedule'
import type { Outbox } from '../messaging/outbox'
import type { Clock } from '../ports/clock'
import type { Repositories } from '../ports/repositories'
import type { UnitOfWork } from '../ports/unit-of-work'
import { digestMail, type DigestContent, type DigestList } from './daily-digest-mail'
import { languageOf, wanting } from './need-notifications'

/** The most needs one list of a digest shows; the console has the rest. */
export const DIGEST_LIST_LIMIT = 25

/**
 * docs/api/organization.md "Notifications": from each organization's digest hour (its local time), every member with
 * `dailyDigest` on gets one mail a day listing its overdue needs and the unassigned open needs it could take
 * (its partner's; the whole organization's for org-wide roles), when there is any. Run by the worker every
 * minute, on every instance: each member's day is taken in the transaction that queues its mail, so the mail
 * is queued once (a rival instance's take fails) and never lost (a crash rolls both back; the next round
 * tries again). Answers how many digests it queued.
 */
export class SendDailyDigests {
  constructor(
    private readonly repositories: Repositories,
    private readonly unitOfWork: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    private readonly publicBaseUrl: string,
  ) {}

  async execute(): Promise<number> {
    const now = this.clock.now()
    let queued = 0
    for (const schedule of await this.repositories.organizations.digestSchedules()) {
      const localDate = dueDigestDate(now, schedule)
      if (!localDate) continue
      const due = await this.repositories.dailyDigests.membersDue(schedule.organizationId, localDate)
      if (due.length === 0) continue
      const partners = await this.repositories.partners.listAll(schedule.organizationId)
      const partnerNames = new Map(partners.map((p) => [p.id, p.name]))
      for (const id of due) {
        const sent = await this.unitOfWork.run((r) => this.digestOf(r, schedule, id, localDate, now, partnerNames))
        if (sent) queued++
      }
    }
    return queued
  }

  /** Takes the member's day whatever it gets, so a member with nothing to hear of is not looked at again today. */
  private async digestOf(
    r: Repositories,
    schedule: { organizationId: string } & DigestSchedule,
    memberId: string,
    localDate: string,
    now: Date,
    partnerNames: ReadonlyMap<string, string>,
  ): Promise<boolean> {
    const { organizationId } = schedule
    if (!(await r.dailyDigests.take(organizationId, memberId, localDate))) return false
    const member = await r.members.findById(organizationId, memberId)
    if (!member || wanting([member], 'dailyDigest').length === 0) return false
    const content = await this.contentFor(r, member, now, partnerNames)
    if (content.overdue.needs.length === 0 && content.unassigned.needs.length === 0) return false
    await this.outbox.email(
      r,
      organizationId,
      digestMail(member.email, languageOf(member), content, {
        partnerNames,
        timeZone: schedule.timeZone ?? DEFAULT_TIME_ZONE,
        publicBaseUrl: this.publicBaseUrl,
      }),
    )
    return true
  }

  /** What the member may open: a partner role its own partner's needs only, and none without a partner. */
  private async contentFor(r: Repositories, member: Member, now: Date, partnerNames: ReadonlyMap<string, string>): Promise<DigestContent> {
    const partnerRole = isPartnerRole(member.role)
    if (partnerRole && !member.partnerId) return { overdue: listOf([]), unassigned: listOf([]), partnerName: undefined }
    const partnerId = partnerRole ? member.partnerId : undefined
    const assigned = await r.dailyDigests.overdueAssignedTo(member.organizationId, member.id, now, DIGEST_LIST_LIMIT + 1)
    const unassigned = await r.dailyDigests.unassignedOpen(member.organizationId, partnerId, DIGEST_LIST_LIMIT + 1)
    return {
      // A need referred to another partner may still be assigned to a partner role, which can no longer open it.
      overdue: listOf(assigned.filter((n) => partnerId === undefined || n.partnerId === partnerId)),
      unassigned: listOf(unassigned),
      partnerName: partnerId === undefined ? undefined : (partnerNames.get(partnerId) ?? partnerId),
    }
  }
}

/** A list of at most DIGEST_LIST_LIMIT, from a read of one more (which tells there are more). */
function listOf(needs: DigestList['needs']): DigestList {
  return { needs: needs.slice(0, DIGEST_LIST_LIMIT), more: needs.length > DIGEST_LIST_LIMIT }
}
