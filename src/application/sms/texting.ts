import { cannotTextReason, type CannotTextReason } from '../../domain/messaging/can-text'
import { secondsUntilFree, sendWindowStart, type SendLimits } from '../../domain/messaging/send-limits'
import type { Clock } from '../ports/clock'
import type { Repositories } from '../ports/repositories'

/** What a need answers about texting its person (docs/api/needs.md "Texting a need"). */
export interface Texting {
  canText: boolean
  cannotTextReason?: CannotTextReason
  /** When the number opted out of the organization's texts (STOP, ALTO…), while it has not opted back in. */
  textsStoppedAt?: Date
}

/** Whether staff may text a number now, as the staff console shows it before anyone types. */
export class TextingStatus {
  constructor(
    private readonly clock: Clock,
    /** Whether texts reach people (Twilio) or only the log (SMS_PROVIDER=log). */
    private readonly textsReachPeople: boolean,
    private readonly limits: SendLimits,
  ) {}

  /** Three indexed reads at once: the number's opt-out, the organization's number, and the texts the number was sent this hour. */
  async of(r: Repositories, organizationId: string, phone: string | undefined): Promise<Texting> {
    if (!phone) return { canText: false, cannotTextReason: 'no-phone' }
    const now = this.clock.now()
    const [textsStoppedAt, organization, sent] = await Promise.all([
      r.smsOptOuts.optedOutAt(organizationId, phone),
      r.organizations.findById(organizationId),
      r.interactions.tallyTextsTo(organizationId, phone, sendWindowStart(now)),
    ])
    const reason = cannotTextReason({
      phone,
      textsStoppedAt,
      textsReachPeople: this.textsReachPeople,
      organizationNumber: organization?.phoneNumber,
      withinLimits: secondsUntilFree(sent, this.limits.smsPerRecipientPerHour, now) === 0,
    })
    return { canText: reason === undefined, ...(reason ? { cannotTextReason: reason } : {}), ...(textsStoppedAt ? { textsStoppedAt } : {}) }
  }
}
