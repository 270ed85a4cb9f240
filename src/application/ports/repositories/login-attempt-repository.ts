import type { LoginFailures } from '../../../domain/auth/login-throttle'

/**
 * Failed logins per email and client address, kept in the database so throttling holds across restarts
 * and instances. Emails are the login's (normalized) identity, across organizations.
 */
export interface LoginAttemptRepository {
  recordFailure(email: string, clientAddress: string, at: Date): Promise<void>
  /** The email's failures at or after `since`, from `clientAddress` and from all, each with its oldest: one query. */
  failuresSince(email: string, clientAddress: string, since: Date): Promise<LoginFailures>
  /** Forgets the email's failures from `clientAddress` (a success there); those from elsewhere still count. */
  clear(email: string, clientAddress: string): Promise<void>
}
