import { InvalidError, NotFoundError } from '../../domain/errors'
import { passwordErrors } from '../../domain/members/member'
import type { PasswordHasher } from '../ports/password-hasher'
import type { UnitOfWork } from '../ports/unit-of-work'
import { membersByEmail } from './members-by-email'
import type { AuditTrail } from '../audit/audit-trail'

// docs/self-hosting.md `member set-password`: an operator's way in when email is not set up
export interface SetMemberPasswordInput {
  email: string
  password: string
  organizationSlug?: string
}

export class SetMemberPassword {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly passwords: PasswordHasher,
    private readonly audit: AuditTrail,
  ) {}

  async execute(input: SetMemberPasswordInput): Promise<void> {
    InvalidError.throwIfAny(passwordErrors(input.password), 'The password is not valid')
    const passwordHash = await this.passwords.hash(input.password)
    await this.unitOfWork.run(async (r) => {
      const members = await membersByEmail(r, input.email, input.organizationSlug)
      const member = members[0]
      if (!member) throw new NotFoundError('Member')
      if (members.length > 1) throw InvalidError.field('/org', 'This email belongs to several organizations: name one with --org')
      await r.members.update({ ...member, passwordHash, isConfirmed: true })
      // An operator's command: no member did it.
      await this.audit.record(
        r,
        { organizationId: member.organizationId },
        { action: 'set_password', recordType: 'member', recordId: member.id, fields: ['isConfirmed', 'password'] },
      )
    })
  }
}
