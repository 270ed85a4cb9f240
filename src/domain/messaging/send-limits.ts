/**
 * Limits on what one person can make the service send (docs/api/access.md "Tokens", docs/api/organization.md "SMS",
 * docs/api/needs.md "Public intake"): reset links to one member, texts to one number, texts by one member, and
 * what every organization together sends one person. Each counts over the last hour what the database
 * recorded, so the limit holds across instances.
 */
export interface SendLimits {
  /** Password-reset links one member (an email in one organization) is sent per hour. */
  passwordResetMailsPerHour: number
  /** Texts an organization sends to one phone number per hour. */
  smsPerRecipientPerHour: number
  /** Texts one member sends per hour. */
  smsPerMemberPerHour: number
  /**
   * Messages one person (a phone number, a mailbox) is sent per hour by every organization together, each kind
   * counted apart: past it, no requester confirmation is sent.
   */
  recipientMessagesPerHour: number
}

export const SEND_LIMIT_WINDOW_MS = 60 * 60_000

/** How many of something happened within a window, and when the oldest did. */
export interface Tally {
  count: number
  oldest?: Date
}

/** The start of the window at `now`: what happened at or after it counts. */
export function sendWindowStart(now: Date): Date {
  return new Date(now.getTime() - SEND_LIMIT_WINDOW_MS + 1)
}

/** Seconds until one more fits under `limit`, 0 when it fits now: a place frees up when the oldest leaves the window. */
export function secondsUntilFree(tally: Tally, limit: number, now: Date): number {
  if (tally.count < limit) return 0
  const freesAt = (tally.oldest ?? now).getTime() + SEND_LIMIT_WINDOW_MS
  return Math.max(1, Math.ceil((freesAt - now.getTime()) / 1000))
}

/** Two tallies of one window as one: their counts added, the older of their oldest. */
export function addTallies(a: Tally, b: Tally): Tally {
  const oldest = [a.oldest, b.oldest].filter((d): d is Date => d !== undefined).sort((x, y) => x.getTime() - y.getTime())[0]
  return { count: a.count + b.count, ...(oldest ? { oldest } : {}) }
}
