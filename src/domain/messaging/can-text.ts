// docs/api/needs.md "Texting a need": whether a person may be texted, and when not, why. The one rule every
// path that texts keeps: staff texts, requester confirmations, and the need's `canText`.

export const CANNOT_TEXT_REASONS = ['no-phone', 'opted-out', 'provider-log', 'no-sms-number', 'limit-reached'] as const
export type CannotTextReason = (typeof CANNOT_TEXT_REASONS)[number]

/** What the rule is decided on, each read by the caller (one indexed read apiece). */
export interface TextingFacts {
  /** The person's phone number, if any. */
  phone?: string
  /** When the number texted STOP (or ALTO…) to the organization, while it has not texted START since. */
  textsStoppedAt?: Date
  /** Whether texts reach people (Twilio), or only the log (SMS_PROVIDER=log). */
  textsReachPeople: boolean
  /** The organization's own number, which Twilio sends from. */
  organizationNumber?: string
  /** Whether one more text to the number fits under the limits that apply to it. */
  withinLimits: boolean
}

/**
 * Why the person may not be texted, or undefined when they may. In this order: what the person chose comes before
 * what the deployment or the organization lacks, and a limit, which passes with time, last. `logAccepted`: staff
 * texts may go to the log (it records them, sending nothing), and then need no SMS number.
 */
export function cannotTextReason(facts: TextingFacts, logAccepted = false): CannotTextReason | undefined {
  if (!facts.phone) return 'no-phone'
  if (facts.textsStoppedAt) return 'opted-out'
  if (!facts.textsReachPeople) {
    if (!logAccepted) return 'provider-log'
  } else if (!facts.organizationNumber) return 'no-sms-number'
  return facts.withinLimits ? undefined : 'limit-reached'
}

/** Why a text is refused, in words for people (the 400's detail). */
export const CANNOT_TEXT_MESSAGES: Record<CannotTextReason, string> = {
  'no-phone': 'The constituent has no phone number',
  'opted-out': 'The constituent opted out of text messages (replied STOP); they can opt back in by texting START',
  'provider-log': 'Texts go to the log (SMS_PROVIDER=log): they reach nobody',
  'no-sms-number': 'The organization has no SMS number yet: an operator sets it with `intake org set-phone-number`',
  'limit-reached': 'This number was sent the most texts it may be within the hour; try again later',
}
