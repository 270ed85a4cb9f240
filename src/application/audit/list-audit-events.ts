import type { Actor } from '../../domain/auth/actor'
import type { AuditEvent, AuditFilter } from '../../domain/audit/audit-event'
import { InvalidError } from '../../domain/errors'
import type { Page, PageRequest } from '../../domain/shared/page'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'

// docs/audit.md: the organization's trail, newest first, for its admins
export class ListAuditEvents {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor, filter: AuditFilter, page: PageRequest): Promise<Page<AuditEvent>> {
    authorize(actor, 'audit:read')
    if (filter.recordId !== undefined && filter.recordType === undefined)
      throw InvalidError.field('/recordType', 'give recordType with recordId')
    if (filter.since && filter.until && filter.since >= filter.until) throw InvalidError.field('/until', 'must be later than since')
    return this.repositories.auditEvents.list(actor.organizationId, filter, page)
  }
}
