import { loginRetryAfterSeconds, loginWindowStart } from '../../domain/auth/login-throttle'
import { maySignIn, normalizeEmail, type Member } from '../../domain/members/member'
import { clientBlockOf } from '../../domain/shared/network-address'
import { InvalidError, TooManyRequestsError, UnauthorizedError } from '../../domain/errors'
import type { Clock } from '../ports/clock'
import type { Repositories } from '../ports/repositories'
import type { PasswordHasher } from '../ports/password-hasher'
import type { UnitOfWork } from '../ports/unit-of-work'
import { membersByEmail } from '../members/members-by-email'
import type { TokenPair, TokenPairIssuer } from './token-pair'
import type { AuditTrail } from '../audit/audit-trail'

export interface LoginInput {
  email: string
  password: string
  organizationSlug?: string
}

/** A hash of a throwaway password, verified for unknown emails so a miss costs as long as a hit. */
const DECOY_PASSWORD = 'decoy-password-never-valid'

export class Login {
  private decoyHash: Promise<string> | undefined

  constructor(
    private readonly repositories: Repositories,
    private readonly unitOfWork: UnitOfWork,
    private readonly passwords: PasswordHasher,
    private readonly tokens: TokenPairIssuer,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  /** `address` is where the attempt comes from (the HTTP adapter's client address). */
  async execute(input: LoginInput, address = 'unknown'): Promise<TokenPair> {
    const email = normalizeEmail(input.email)
    // Failures count per IPv6 /64: one client may pick any address in it.
    const clientAddress = clientBlockOf(address)
    await this.refuseWhenThrottled(email, clientAddress)

    const candidates = await membersByEmail(this.repositories, email, input.organizationSlug)
    const matching: Member[] = []
    for (const member of candidates) {
      // A deactivated or unconfirmed member is refused as a wrong password is: after the same work.
      if (member.passwordHash && (await this.passwords.verify(input.password, member.passwordHash)) && maySignIn(member))
        matching.push(member)
    }
    if (!candidates.some((m) => m.passwordHash)) await this.passwords.verify(input.password, await this.decoy())

    const member = matching[0]
    if (!member) {
      await this.unitOfWork.run((r) => r.loginAttempts.recordFailure(email, clientAddress, this.clock.now()))
      throw new UnauthorizedError('Wrong email or password')
    }
    if (matching.length > 1) {
      throw InvalidError.field('/organizationSlug', 'This email belongs to several organizations: name one with organizationSlug')
    }
    return this.unitOfWork.run(async (r) => {
      await r.loginAttempts.clear(email, clientAddress)
      await this.audit.record(
        r,
        { organizationId: member.organizationId, memberId: member.id },
        { action: 'login', recordType: 'member', recordId: member.id },
      )
      return this.tokens.issue(r, member)
    })
  }

  private async refuseWhenThrottled(email: string, clientAddress: string): Promise<void> {
    const now = this.clock.now()
    const failures = await this.repositories.loginAttempts.failuresSince(email, clientAddress, loginWindowStart(now))
    const retryAfter = loginRetryAfterSeconds(failures, now)
    if (retryAfter > 0) throw new TooManyRequestsError(retryAfter, 'Too many failed logins for this email, try again later')
  }

  private decoy(): Promise<string> {
    this.decoyHash ??= this.passwords.hash(DECOY_PASSWORD)
    return this.decoyHash
  }
}
