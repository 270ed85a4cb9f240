import { ConflictError, InvalidError } from '../../domain/errors'
import { normalizeEmail, PASSWORD } from '../../domain/members/member'
import { MAIL_LANGUAGES, type MailLanguage } from '../../domain/members/notifications'
import { DEFAULT_MAX_CONCURRENCY, organizationFieldErrors } from '../../domain/organizations/organization'
import { EMAIL, EMAIL_MEANING, FieldChecks } from '../../domain/shared/fields'
import { DEFAULT_COUNTRY } from '../../domain/shared/phone'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { PasswordHasher } from '../ports/password-hasher'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { AuditTrail } from '../audit/audit-trail'

// docs/self-hosting.md: `org create` and the first start
export interface CreateOrganizationInput {
  name: string
  slug: string
  shortCode?: string
  adminEmail: string
  adminPassword: string
  /** The language its people work in, `en` unless given: its default partner is named in it. */
  language?: MailLanguage
}

export interface CreatedOrganization {
  organizationId: string
  adminMemberId: string
  defaultPartnerId: string
}

/**
 * The partner every new organization starts with, to triage what nothing else routes (docs/api/needs.md "Partners"),
 * named in the organization's language.
 */
export const DEFAULT_PARTNER = { names: { en: 'General intake', es: 'Recepción general' }, slaHours: 72 } as const

/** Creates an organization with its default partner and its first org_admin, confirmed and able to log in. */
export class CreateOrganization {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly passwords: PasswordHasher,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly audit: AuditTrail,
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
      // A former slug too: it stays the organization that left it.
      if (await r.organizations.findByAnySlug(input.slug)) throw new ConflictError(`The slug ${input.slug} is taken`)
      if (input.shortCode && (await r.organizations.findByShortCode(input.shortCode))) {
        throw new ConflictError(`The short code ${input.shortCode} is taken`)
      }
      await r.organizations.insert({
        id: created.organizationId,
        name: input.name,
        slug: input.slug,
        ...(input.shortCode ? { shortCode: input.shortCode } : {}),
        maxConcurrency: DEFAULT_MAX_CONCURRENCY,
        // The first run (or an org_admin, in the settings) says where the organization is.
        defaultCountry: DEFAULT_COUNTRY,
        createdAt: now,
      })
      await r.partners.insert({
        id: created.defaultPartnerId,
        organizationId: created.organizationId,
        name: DEFAULT_PARTNER.names[input.language ?? 'en'],
        slaHours: DEFAULT_PARTNER.slaHours,
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
      // An operator's command (or the first start): no member did it.
      await this.audit.record(
        r,
        { organizationId: created.organizationId },
        { action: 'create', recordType: 'organization', recordId: created.organizationId },
        { action: 'create', recordType: 'partner', recordId: created.defaultPartnerId },
        { action: 'create', recordType: 'member', recordId: created.adminMemberId },
      )
    })
    return created
  }
}

/** The settings every organization keeps (the same parser as an update), and a first admin who can log in. */
function checkOrganizationInput({ adminEmail, adminPassword, language, ...settings }: CreateOrganizationInput): void {
  const admin = new FieldChecks()
    .text('/adminEmail', adminEmail, EMAIL, { meaning: EMAIL_MEANING, trim: true })
    .text('/adminPassword', adminPassword, PASSWORD)
    .oneOf('/language', language, MAIL_LANGUAGES, 'optional')
  InvalidError.throwIfAny([...organizationFieldErrors(settings), ...admin.errors], 'The organization cannot be created')
}
