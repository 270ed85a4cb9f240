import { DEFAULT_AUDIT_RETENTION_DAYS } from '../../domain/audit/audit-event'
import { DEFAULT_DIGEST_HOUR, DEFAULT_TIME_ZONE } from '../../domain/organizations/digest-schedule'
import { changedFields } from '../../domain/audit/audit-event'
import type { Actor } from '../../domain/auth/actor'
import { InvalidError, NotFoundError } from '../../domain/errors'
import { organizationFieldErrors, type Organization, type OrganizationFields } from '../../domain/organizations/organization'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { AuditTrail } from '../audit/audit-trail'

// docs/api/organization.md "Organization settings"
export type OrganizationSettings = Omit<Organization, 'createdAt' | 'quickReplies'> & {
  auditRetentionDays: number
  appOrigins: string[]
  formOrigins: string[]
  digestHour: number
  timeZone: string
  confirmRequests: boolean
  publishDirectory: boolean
}

/**
 * A partial update: a field left out is unchanged; `null` clears `shortCode` (new needs then use REQ),
 * `tcrStatus` or a retention (then kept for good); a list of origins replaces the one kept (`[]` empties it).
 */
export type UpdateOrganizationSettingsInput = Partial<OrganizationFields>

/** The quick replies have their own route (docs/api/organization.md "Quick replies"). */
function settingsOf({ createdAt: _createdAt, quickReplies: _replies, ...settings }: Organization): OrganizationSettings {
  return {
    ...settings,
    auditRetentionDays: settings.auditRetentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS,
    appOrigins: settings.appOrigins ?? [],
    formOrigins: settings.formOrigins ?? [],
    digestHour: settings.digestHour ?? DEFAULT_DIGEST_HOUR,
    timeZone: settings.timeZone ?? DEFAULT_TIME_ZONE,
    confirmRequests: settings.confirmRequests ?? false,
    publishDirectory: settings.publishDirectory ?? false,
  }
}

export class GetOrganizationSettings {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor): Promise<OrganizationSettings> {
    authorize(actor, 'organization:settings')
    const organization = await this.repositories.organizations.findById(actor.organizationId)
    if (!organization) throw new NotFoundError('Organization')
    return settingsOf(organization)
  }
}

/** A slug or short code another organization holds is a 409, decided by the database's unique index. */
export class UpdateOrganizationSettings {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, input: UpdateOrganizationSettingsInput): Promise<OrganizationSettings> {
    authorize(actor, 'organization:settings')
    InvalidError.throwIfAny(organizationFieldErrors(input, false), 'The organization settings are not valid')
    return this.unitOfWork.run(async (r) => {
      const before = await r.organizations.findById(actor.organizationId)
      if (!before) throw new NotFoundError('Organization')
      const { shortCode, tcrStatus, description, constituentRetentionDays, needTextRetentionDays, appOrigins, formOrigins, ...rest } =
        before
      const nextShortCode = input.shortCode === undefined ? shortCode : (input.shortCode ?? undefined)
      const nextTcrStatus = input.tcrStatus === undefined ? tcrStatus : (input.tcrStatus ?? undefined)
      const nextDescription = input.description === undefined ? description : (input.description ?? undefined)
      const nextConstituentDays =
        input.constituentRetentionDays === undefined ? constituentRetentionDays : (input.constituentRetentionDays ?? undefined)
      const nextNeedTextDays =
        input.needTextRetentionDays === undefined ? needTextRetentionDays : (input.needTextRetentionDays ?? undefined)
      // An empty list is kept as none, as an organization that never set one.
      const nextAppOrigins = input.appOrigins ?? appOrigins ?? []
      const nextFormOrigins = input.formOrigins ?? formOrigins ?? []
      const after: Organization = {
        ...rest,
        name: input.name?.trim() ?? before.name,
        slug: input.slug ?? before.slug,
        maxConcurrency: input.maxConcurrency ?? before.maxConcurrency,
        ...((input.auditRetentionDays ?? before.auditRetentionDays)
          ? { auditRetentionDays: input.auditRetentionDays ?? before.auditRetentionDays }
          : {}),
        ...(nextShortCode ? { shortCode: nextShortCode } : {}),
        ...(nextTcrStatus ? { tcrStatus: nextTcrStatus } : {}),
        ...(nextDescription ? { description: nextDescription } : {}),
        ...(nextConstituentDays ? { constituentRetentionDays: nextConstituentDays } : {}),
        ...(nextNeedTextDays ? { needTextRetentionDays: nextNeedTextDays } : {}),
        ...(nextAppOrigins.length > 0 ? { appOrigins: nextAppOrigins } : {}),
        ...(nextFormOrigins.length > 0 ? { formOrigins: nextFormOrigins } : {}),
        // Kept in `rest` when left out.
        ...definedOf({
          digestHour: input.digestHour,
          timeZone: input.timeZone,
          confirmRequests: input.confirmRequests,
          publishDirectory: input.publishDirectory,
          defaultCountry: input.defaultCountry,
        }),
      }
      await r.organizations.update(after)
      await this.audit.record(r, actor, {
        action: 'update',
        recordType: 'organization',
        recordId: after.id,
        fields: changedFields(before, after),
      })
      return settingsOf(after)
    })
  }
}

/** The fields given a value: one left out of a partial update is not written over. */
function definedOf<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>
}
