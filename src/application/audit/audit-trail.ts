import type { Actor } from '../../domain/auth/actor'
import type { AuditAction, AuditCounts, AuditEvent, AuditRecordType } from '../../domain/audit/audit-event'
import { detailsToldBy } from '../../domain/constituents/duplicate-hints'
import type { PossibleDuplicate } from '../../domain/constituents/matching'
import { PERSONAL_DETAILS } from '../../domain/constituents/redaction'
import type { Need } from '../../domain/needs/need'
import { MEMBER_CHANGED } from '../../domain/webhooks/live-event'
import type { Clock } from '../ports/clock'
import type { CurrentRequest } from '../ports/current-request'
import type { IdGenerator } from '../ports/ids'
import type { Repositories } from '../ports/repositories'
import type { UnitOfWork } from '../ports/unit-of-work'

/** Who did it: a member of the organization, or nobody logged in (public intake, a provider, an operator). */
export type AuditSubject = Pick<Actor, 'organizationId'> & { memberId?: string }

/** One thing done to one record; `fields` are names only, never values. */
export interface AuditEntry {
  action: AuditAction
  recordType: AuditRecordType
  recordId: string
  fields?: readonly string[]
  counts?: AuditCounts
}

/**
 * Writes the audit trail (docs/audit.md). A write records its events through `record` inside its own unit of
 * work, so the events commit and roll back with it; a read of constituents' personal details records them
 * with `constituentsRead`, one transaction per request however many were read.
 */
export class AuditTrail {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly request: CurrentRequest,
  ) {}

  /**
   * Appends the entries in the transaction `r` of the write they describe. A member's sign-in, sign-out or
   * change of access also tells the live streams to check that member again (docs/events.md "The live stream").
   */
  async record(r: Repositories, who: AuditSubject, ...entries: AuditEntry[]): Promise<void> {
    await r.auditEvents.append(this.events(who, entries))
    const members = [...new Set(entries.filter((e) => e.recordType === 'member').map((e) => e.recordId))]
    if (members.length > 0)
      await r.liveEvents.append(
        who.organizationId,
        MEMBER_CHANGED,
        members.map((memberId) => ({ memberId })),
        this.clock.now(),
      )
  }

  /**
   * The actor was answered these constituents (as redacted for it): one `read` event for each that showed a
   * personal detail, naming the details shown, in one transaction. For a read outside any write's transaction.
   */
  async constituentsRead(actor: Actor, constituents: ReadonlyArray<{ id: string } | undefined>): Promise<void> {
    await this.reads(actor, readsOf(constituents))
  }

  /** The actor was shown these possible duplicates outside a creation (a check before one): as `hintReadsOf` records them. */
  async duplicatesShown(actor: Actor, shown: readonly PossibleDuplicate[]): Promise<void> {
    await this.reads(actor, hintReadsOf(shown))
  }

  /**
   * The actor was exported these needs (as redacted for it): one `read` event for each whose `customFields`
   * showed a constituent's personal details (the contact keys of an intake), in one transaction.
   */
  async needsRead(actor: Actor, needs: ReadonlyArray<Pick<Need, 'id' | 'customFields'>>): Promise<void> {
    await this.reads(
      actor,
      readsOf(
        needs.map((need) => ({ ...need.customFields, id: need.id })),
        'need',
      ),
    )
  }

  private async reads(actor: Actor, entries: AuditEntry[]): Promise<void> {
    if (entries.length === 0) return
    const events = this.events(actor, entries)
    await this.unitOfWork.run((r) => r.auditEvents.append(events))
  }

  private events(who: AuditSubject, entries: readonly AuditEntry[]): AuditEvent[] {
    const at = this.clock.now()
    const requestId = this.request.id()
    return entries.map(({ fields, ...entry }) => ({
      id: this.ids.nextInTimeOrder(),
      organizationId: who.organizationId,
      ...(who.memberId !== undefined ? { memberId: who.memberId } : {}),
      ...entry,
      at,
      ...(requestId !== undefined ? { requestId } : {}),
      ...(fields !== undefined && fields.length > 0 ? { fields: [...fields] } : {}),
    }))
  }
}

/**
 * The `read` entries of constituents as answered: one for each that showed a personal detail, naming those
 * shown. Names alone are no such read: every caseworker sees them. A write that answers people records
 * these with its own entries.
 */
export function readsOf(
  constituents: ReadonlyArray<{ id: string } | undefined>,
  recordType: 'constituent' | 'need' = 'constituent',
): AuditEntry[] {
  const unique = [...new Map(constituents.filter((c) => c !== undefined).map((c) => [c.id, c])).values()]
  return unique.flatMap((constituent): AuditEntry[] => {
    const shown = PERSONAL_DETAILS.filter((field) => (constituent as Record<string, unknown>)[field] !== undefined)
    return shown.length === 0 ? [] : [{ action: 'read', recordType, recordId: constituent.id, fields: shown }]
  })
}

/**
 * The `read` entries of the possible duplicates a creation showed its caller (`candidatesShownTo`): each
 * candidate named was found by its phone, email, date of birth or street, one the caller may read, which
 * its read names, as a search by them would be recorded. They go into the creation's own transaction.
 */
export function hintReadsOf(shown: readonly PossibleDuplicate[]): AuditEntry[] {
  return shown.map((candidate) => ({
    action: 'read',
    recordType: 'constituent',
    recordId: candidate.constituentId,
    fields: detailsToldBy(candidate.reasons),
  }))
}
