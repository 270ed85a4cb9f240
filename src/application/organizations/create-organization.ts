import { ConflictError, InvalidError } from '../../domain/errors'
import { MIN_PASSWORD_LENGTH, normalizeEmail } from '../../domain/members/member'
import { DEFAULT_MAX_CONCURRENCY, SHORT_CODE_PATTERN, SLUG_MAX_LENGTH, SLUG_PATTERN } from '../../domain/organizations/organization'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { PasswordHasher } from '../ports/security'
import type { UnitOfWork } from '../ports/unit-of-work'

// docs/self-hosting.md: `org create` and the first start
export interface CreateOrganizationInput {
  name: string
  slug: string
  shortCode?: string
  adminEmail: string
  adminPassword: string
}

export interface CreatedOrganization {
  organizationId: string
  adminMemberId: string
  defaultPartnerId: string
}

/** The partner every new organization starts with, to triage what nothing else routes (docs/api.md). */
export const DEFAULT_PARTNER = { name: 'General intake', slaHours: 72 } as const

/** Creates an organization with its default partner and its first org_admin, confirmed and able to log in. */
export class CreateOrganization {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly passwords: PasswordHasher,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async execute(input: CreateOrganizationInput): Promise<CreatedOrganization> {
    checkOrganizationInput(input)
    const passwordHash = await this.passwords.hash(input.adminPassword)
    const now = this.clock.now()
    const created: CreatedOrganization = {
      organizationId: this.ids.next(),
      adminMemberId: this.ids.next(),
      defaultPartnerId: this.ids.next(),
    }
    await this.unitOfWork.run(async (r) => {
      if (await r.organizations.findBySlug(input.slug)) throw new ConflictError(`The slug ${input.slug} is taken`)
      if (input.shortCode && (await r.organizations.findByShortCode(input.shortCode))) {
        throw new ConflictError(`The short code ${input.shortCode} is taken`)
      }
      await r.organizations.insert({
        id: created.organizationId,
        name: input.name,
        slug: input.slug,
        ...(input.shortCode ? { shortCode: input.shortCode } : {}),
        maxConcurrency: DEFAULT_MAX_CONCURRENCY,
        createdAt: now,
      })
      await r.partners.insert({
        id: created.defaultPartnerId,
        organizationId: created.organizationId,
        ...DEFAULT_PARTNER,
        isArchived: false,
        isDefault: true,
        createdAt: now,
      })
      await r.members.insert({
        id: created.adminMemberId,
        organizationId: created.organizationId,
        email: normalizeEmail(input.adminEmail),
        role: 'org_admin',
        profiles: [],
        isConfirmed: true,
        passwordHash,
        createdAt: now,
      })
    })
    return created
  }
}

function checkOrganizationInput(input: CreateOrganizationInput): void {
  const errors = []
  if (!input.name.trim() || input.name.length > 200) errors.push({ path: '/name', message: 'must be 1 to 200 characters' })
  if (input.slug.length > SLUG_MAX_LENGTH || !new RegExp(SLUG_PATTERN).test(input.slug)) {
    errors.push({ path: '/slug', message: 'must be lowercase letters, digits and single hyphens, at most 63 characters' })
  }
  if (input.shortCode !== undefined && !new RegExp(SHORT_CODE_PATTERN).test(input.shortCode)) {
    errors.push({ path: '/shortCode', message: 'must be 4 to 6 uppercase letters' })
  }
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(input.adminEmail)) errors.push({ path: '/adminEmail', message: 'must be an email address' })
  if (input.adminPassword.length < MIN_PASSWORD_LENGTH) {
    errors.push({ path: '/adminPassword', message: `must be at least ${MIN_PASSWORD_LENGTH} characters` })
  }
  if (errors.length > 0) throw new InvalidError('The organization cannot be created', errors)
}
