/**
 * Login throttling (docs/api/access.md "Tokens"). Failures are counted per email and client address, so a
 * stranger's wrong passwords from elsewhere do not lock the member out; and per email from every address,
 * with a higher ceiling, against guessing spread over many addresses. Past that ceiling only the addresses
 * that failed for the email are refused: a guesser gets one try per new address, while the member, from
 * an address without recent failures, still logs in.
 */
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000
export const LOGIN_FAILURES_PER_ADDRESS = 10
export const LOGIN_FAILURES_PER_EMAIL = 100

/** The failures of one email within the window: from one address, and from all. */
export interface LoginFailures {
  fromAddress: number
  oldestFromAddress?: Date
  total: number
  oldest?: Date
}

/** The start of the window at `now`: a failure counts while it is under 15 minutes old. */
export function loginWindowStart(now: Date): Date {
  return new Date(now.getTime() - LOGIN_FAILURE_WINDOW_MS + 1)
}

/**
 * Seconds until another attempt may be made, 0 when one may be made now. A limit reached frees up when
 * its oldest failure leaves the window.
 */
export function loginRetryAfterSeconds(failures: LoginFailures, now: Date): number {
  const freesAt = (oldest: Date | undefined) => (oldest ?? now).getTime() + LOGIN_FAILURE_WINDOW_MS
  const waits: number[] = []
  if (failures.fromAddress >= LOGIN_FAILURES_PER_ADDRESS) waits.push(freesAt(failures.oldestFromAddress))
  if (failures.total >= LOGIN_FAILURES_PER_EMAIL && failures.fromAddress > 0) waits.push(freesAt(failures.oldest))
  if (waits.length === 0) return 0
  return Math.max(1, Math.ceil((Math.max(...waits) - now.getTime()) / 1000))
}
