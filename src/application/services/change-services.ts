import { changedFields } from '../../domain/audit/audit-event'
import type { Actor } from '../../domain/auth/actor'
import { ForbiddenError, InvalidError, NotFoundError } from '../../domain/errors'
import { keptServiceFields, serviceFieldErrors, type Service, type ServiceDetail, type ServiceFields } from '../../domain/services/service'
import type { AuditTrail } from '../audit/audit-trail'
import { authorize } from '../auth/authorize'
import { phoneCountryOf } from '../organizations/phone-country'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { Repositories } from '../ports/repositories'
import type { UnitOfWork } from '../ports/unit-of-work'
import { knownTerms, withTerms } from './service-terms'

// docs/api/services.md

/** A new service: its partner and name; the rest optional (`active`, accepting referrals, no lists, by default). */
export type CreateServiceInput = Pick<ServiceFields, 'partnerId' | 'name'> &
  Partial<Omit<ServiceFields, 'partnerId' | 'name' | 'isArchived'>>

/** A partial update: a field left out is unchanged, `null` clears an optional one, a list given replaces the one kept. */
export type UpdateServiceInput = Partial<ServiceFields>

export class CreateService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, input: CreateServiceInput): Promise<ServiceDetail> {
    authorize(actor, 'services:manage')
    return this.unitOfWork.run(async (r) => {
      const fields = await checkedFields(r, actor, input, 'create')
      const now = this.clock.now()
      const service: Service = {
        status: 'active',
        languages: [],
        schedule: [],
        acceptingReferrals: true,
        ...withoutNulls(fields),
        taxonomyTerms: await knownTerms(r, actor.organizationId, input.taxonomyTerms ?? []),
        id: this.ids.next(),
        organizationId: actor.organizationId,
        isArchived: false,
        createdAt: now,
        updatedAt: now,
      }
      await r.services.insert(service)
      await this.audit.record(r, actor, { action: 'create', recordType: 'service', recordId: service.id })
      const [detail] = await withTerms(r, actor.organizationId, [service])
      return detail!
    })
  }
}

export class UpdateService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, id: string, input: UpdateServiceInput): Promise<ServiceDetail> {
    authorize(actor, 'services:manage')
    return this.unitOfWork.run(async (r) => {
      const before = await r.services.findById(actor.organizationId, id)
      if (!before) throw new NotFoundError('Service')
      assertOwnPartner(actor, before.partnerId)
      const fields = await checkedFields(r, actor, input, 'update')
      const merged: Record<string, unknown> = { ...before, ...fields }
      for (const [key, value] of Object.entries(fields)) if (value === null) delete merged[key]
      const after = merged as unknown as Service
      if (input.taxonomyTerms) after.taxonomyTerms = await knownTerms(r, actor.organizationId, input.taxonomyTerms)
      const changed = changedFields(before, after)
      if (changed.length > 0) {
        after.updatedAt = this.clock.now()
        await r.services.update(after)
        await this.audit.record(r, actor, { action: 'update', recordType: 'service', recordId: after.id, fields: changed })
      }
      const [detail] = await withTerms(r, actor.organizationId, [after])
      return detail!
    })
  }
}

/** The input checked (its phone read in the organization's country) and as it is kept; its partner the organization's, and the actor's to manage. */
async function checkedFields<T extends Partial<ServiceFields>>(
  r: Repositories,
  actor: Actor,
  input: T,
  change: 'create' | 'update',
): Promise<T> {
  const country = await phoneCountryOf(r, actor.organizationId)
  InvalidError.throwIfAny(serviceFieldErrors(input, change, country), 'The service has invalid fields')
  if (input.partnerId !== undefined) {
    assertOwnPartner(actor, input.partnerId)
    if (!(await r.partners.findById(actor.organizationId, input.partnerId))) {
      throw new InvalidError('The service has invalid fields', [{ path: '/partnerId', message: 'must name a partner of the organization' }])
    }
  }
  return keptServiceFields(input, country)
}

/** A partner_admin manages its own partner's services only, and cannot hand one to another partner. */
function assertOwnPartner(actor: Actor, partnerId: string): void {
  if (actor.role === 'partner_admin' && actor.partnerId !== partnerId) {
    throw new ForbiddenError("Partner admins manage their own partner's services only")
  }
}

function withoutNulls<T extends object>(fields: T): { [K in keyof T]: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null)) as never
}
