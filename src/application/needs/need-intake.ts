import { readContactDetails, withKeptPhone } from '../../domain/constituents/contact'
import { phoneCountryOf } from '../organizations/phone-country'
import { duplicateWarning } from '../../domain/constituents/matching'
import { dueDateFor, INITIAL_NEED_STATUS, type CustomFields, type Need, type NeedStatus } from '../../domain/needs/need'
import type { Partner } from '../../domain/partners/partner'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { Repositories } from '../ports/repositories'
import type { UnnumberedNeed } from '../ports/repositories/need-repository'
import type { ConstituentRegistry } from '../constituents/constituent-registry'
import type { Registered } from '../constituents/duplicate-detection'
import type { WebhookSubscriber } from '../ports/repositories/webhook-endpoint-repository'
import type { WebhookEvents } from '../webhooks/webhook-events'
import type { AuditEntry, AuditTrail } from '../audit/audit-trail'
import type { NeedNotifications } from './need-notifications'
import type { NumberingNeed } from './numbering-need'

export interface NewNeed {
  /** Drawn by the caller when it must know it first (a create's Idempotency-Key names it); otherwise drawn here. */
  id?: string
  organizationId: string
  partner: Partner
  status?: NeedStatus
  customFields: CustomFields
  isConfidential: boolean
  parentNeedId?: string
  assignedTo?: string
  constituentId?: string
  householdId?: string
  createdBy?: string
  /** Set by hand; otherwise the partner's SLA from the creation time. */
  dueDate?: Date | null
  /**
   * Whether a constituent made from the contact keys joins `householdId`. Staff may put a new person in a
   * known household; an anonymous caller's person always starts a household of its own (docs/api/needs.md "Needs").
   */
  newPersonJoinsHousehold?: boolean
  /**
   * An imported request's date in the file it came from (docs/api/exports-import.md "Import"): the need's creation time and
   * its first history entry's. Nobody is told it arrived: it is an old request, not a new one.
   */
  originalDate?: Date
  /** An imported resolved request's resolution time in its file (absent: its `originalDate`), for the reports. */
  originalResolution?: Date
}

/**
 * A need just recorded, and the constituent made from its contact keys with who they may be already: every
 * candidate, for the caller to answer as its reader may learn them (`DuplicateDetection.candidatesShownTo`).
 * Its reference number is awaited where it is needed, at the latest once the unit of work has committed:
 * nothing else waits for it.
 */
export interface RecordedNeed {
  need: NumberingNeed
  person?: Registered
}

/**
 * Records a new need inside the caller's transaction: its reference number, taken by the store from the
 * organization's sequence as the need is inserted, its due date (unless set by hand) from the partner's SLA,
 * and its first history entry. Without a `constituentId`, contact keys in `customFields` become a new
 * constituent, checked for duplicates (docs/api/needs.md "Needs").
 */
export class NeedIntake {
  constructor(
    private readonly registry: ConstituentRegistry,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly events: WebhookEvents,
    private readonly audit: AuditTrail,
    private readonly notifications: NeedNotifications,
  ) {}

  /**
   * Records a need whose input is still being made: its references checked (`checkNeedReferences`), its
   * partner chosen. Who hears of it, and the country its phone is read in, are read meanwhile, so that the
   * checks and those reads go out together.
   */
  async recordWhenChecked(r: Repositories, organizationId: string, checking: Promise<NewNeed>): Promise<RecordedNeed> {
    const [input, endpoints, country] = await Promise.all([
      checking,
      this.subscribers(r, organizationId),
      phoneCountryOf(r, organizationId),
    ])
    const [recorded] = await this.recordRead(r, organizationId, [input], endpoints, country)
    return recorded!
  }

  /**
   * Records needs of one organization in order (an import's batch), each as `recordWhenChecked` would, in a
   * few statements for all: their reference numbers taken in their order, their constituents registered together.
   */
  async recordAll(r: Repositories, organizationId: string, inputs: readonly NewNeed[]): Promise<RecordedNeed[]> {
    const [endpoints, country] = await Promise.all([this.subscribers(r, organizationId), phoneCountryOf(r, organizationId)])
    return this.recordRead(r, organizationId, inputs, endpoints, country)
  }

  private subscribers(r: Repositories, organizationId: string): Promise<WebhookSubscriber[]> {
    return this.events.subscribers(r, organizationId, 'need.created')
  }

  private async recordRead(
    r: Repositories,
    organizationId: string,
    inputs: readonly NewNeed[],
    endpoints: WebhookSubscriber[],
    country: string,
  ): Promise<RecordedNeed[]> {
    const now = this.clock.now()
    const people = await this.constituentsOf(r, organizationId, inputs, country)
    const needs = inputs.map((input, i): UnnumberedNeed => {
      const createdAt = input.originalDate ?? now
      const {
        id,
        partner,
        status,
        dueDate,
        newPersonJoinsHousehold: _joins,
        originalDate: _original,
        originalResolution,
        ...fields
      } = input
      const { person: _person, ...constituent } = people[i]!
      return {
        ...fields,
        // The phone as its constituent keeps it: a national number typed is stored in E.164.
        customFields: withKeptPhone(input.customFields, country),
        ...constituent,
        id: id ?? this.ids.nextInTimeOrder(),
        partnerId: partner.id,
        status: status ?? INITIAL_NEED_STATUS,
        createdAt,
        updatedAt: now,
        dueDate: dueDate ?? dueDateFor(createdAt, partner.slaHours),
        dueDateSetByHand: Boolean(dueDate),
        // Created resolved (an old request imported as done): resolved when its file says, or when it was made.
        ...(status === 'RESOLVED' ? { resolvedAt: originalResolution ?? createdAt } : {}),
      }
    })
    // The numbers are awaited only by what names them: the writes below go out meanwhile.
    const { referenceNumbers } = await r.needs.insertMany(needs)
    const recorded = needs.map((need, i): RecordedNeed => {
      const { person } = people[i]!
      return {
        need: { ...need, referenceNumber: settledLater(referenceNumbers.then((numbers) => numbers[i]!)) },
        ...(person ? { person } : {}),
      }
    })
    await r.needs.appendChanges(
      needs.map((need) => ({
        id: this.ids.nextInTimeOrder(),
        organizationId,
        needId: need.id,
        field: 'status',
        to: need.status,
        ...(need.createdBy ? { changedBy: need.createdBy } : {}),
        changedAt: need.createdAt,
      })),
    )
    await this.events.emitTo(
      r,
      organizationId,
      endpoints,
      'need.created',
      needs.map((need) => ({ needId: need.id })),
    )
    const entries = new Map<string | undefined, AuditEntry[]>()
    for (const [i, { need }] of recorded.entries()) {
      // Nobody on the staff made it: someone has to hear that it arrived (not of an old request, imported).
      if (!need.createdBy && !inputs[i]!.originalDate) await this.notifications.arrived(r, need, inputs[i]!.partner)
      await this.notifications.assigned(r, need, need.createdBy)
      // A constituent made from the need's contact fields is a record of its own in the trail.
      const made = need.constituentId && !inputs[i]!.constituentId ? [need.constituentId] : []
      entries.set(need.createdBy, [
        ...(entries.get(need.createdBy) ?? []),
        { action: 'create', recordType: 'need', recordId: need.id },
        ...made.map((id) => ({ action: 'create', recordType: 'constituent', recordId: id }) as const),
      ])
    }
    for (const [memberId, made] of entries) await this.audit.record(r, { organizationId, ...(memberId ? { memberId } : {}) }, ...made)
    return recorded
  }

  /** For each input, the constituent made from its contact keys (registered together), or none. */
  private async constituentsOf(
    r: Repositories,
    organizationId: string,
    inputs: readonly NewNeed[],
    country: string,
  ): Promise<Array<Pick<Need, 'constituentId' | 'householdId' | 'duplicateWarning'> & Pick<RecordedNeed, 'person'>>> {
    const people = inputs.map((input) => {
      if (input.constituentId) return undefined
      const { details } = readContactDetails(input.customFields, '/customFields', country)
      if (Object.keys(details).length === 0) return undefined
      const household = input.newPersonJoinsHousehold === false ? undefined : input.householdId
      return { details, ...(household ? { householdId: household } : {}) }
    })
    const registered = await this.registry.registerAll(
      r,
      organizationId,
      people.filter((person) => person !== undefined),
    )
    return people.map((person) => {
      if (!person) return {}
      const made = registered.shift()!
      const warning = duplicateWarning(made.candidates)
      return {
        constituentId: made.constituent.id,
        householdId: made.constituent.householdId,
        person: made,
        // Stored whole; each reader gets it as it may read it (`redactNeed`).
        ...(warning ? { duplicateWarning: warning } : {}),
      }
    })
  }
}

/**
 * A number awaited only where it is needed: when the unit of work fails first, nobody awaits it, and its
 * failure (the insert's) is the unit's already.
 */
function settledLater<T>(later: Promise<T>): Promise<T> {
  later.catch(() => {})
  return later
}
