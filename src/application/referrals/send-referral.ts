import type { Actor } from '../../domain/auth/actor'
import { readContactDetails } from '../../domain/constituents/contact'
import { InvalidError } from '../../domain/errors'
import type { ReferralPartner } from '../../domain/federation/referral-partner'
import { REFERRAL_REQUESTED, requestedPayloadOf, type RequestedPayload } from '../../domain/referrals/messages'
import {
  consentErrors,
  consentHolds,
  REFERRAL_NOTE,
  sharedDetails,
  type Consent,
  type ConsentInput,
  type Referral,
} from '../../domain/referrals/referral'
import { FieldChecks } from '../../domain/shared/fields'
import type { AuditTrail } from '../audit/audit-trail'
import { authorize } from '../auth/authorize'
import type { FederationOutbox } from '../federation/federation-outbox'
import type { FederationHandler, ReceivedMessage } from '../federation/federation-handlers'
import { findVisibleNeed } from '../needs/find-need'
import type { NeedIntake } from '../needs/need-intake'
import { phoneCountryOf } from '../organizations/phone-country'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { Repositories } from '../ports/repositories'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { WebhookEvents } from '../webhooks/webhook-events'
import { referralView, type ReferralView } from './read-referrals'
import { notDelivered } from './referral-handlers'
import { organizationName, type ReferralJournal } from './referral-journal'

export interface SendReferralInput {
  referralPartnerId?: unknown
  serviceId?: unknown
  consent?: ConsentInput
  note?: unknown
}

const NO_PERSON = 'The need names no person to refer'
const ID = { minLength: 1, maxLength: 100 } as const

/**
 * `POST /api/needs/{id}/referrals` (docs/referrals.md "Referrals"): the need sent to a partner's service with the person's
 * consent. Only the consented contact fields that hold a value, and the note, travel; the id is the same on both sides.
 */
export class SendReferral {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly messages: ReferralMessages,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, needId: string, input: SendReferralInput): Promise<ReferralView> {
    authorize(actor, 'referrals:send')
    const now = this.clock.now()
    const errors = new FieldChecks()
      .text('/referralPartnerId', input.referralPartnerId, ID)
      .text('/serviceId', input.serviceId, ID)
      .text('/note', input.note, REFERRAL_NOTE, { presence: 'optional' }).errors
    InvalidError.throwIfAny([...errors, ...consentErrors(input.consent, now)], 'The referral is not valid')
    return this.unitOfWork.run(async (r) => {
      const need = await findVisibleNeed(r, actor, needId)
      if (!need.constituentId) throw new InvalidError(NO_PERSON)
      const partner = await r.referralPartners.findById(actor.organizationId, input.referralPartnerId as string)
      if (partner?.status !== 'active') throw InvalidError.field('/referralPartnerId', 'is no active referral partner')
      const referral: Referral = {
        id: this.ids.nextInTimeOrder(),
        organizationId: actor.organizationId,
        direction: 'out',
        referralPartnerId: partner.id,
        serviceId: input.serviceId as string,
        needId: need.id,
        partnerId: need.partnerId,
        status: 'requested',
        consent: input.consent as Consent,
        history: [
          {
            status: 'requested',
            at: now,
            by: { organization: await organizationName(r, actor.organizationId), member: actor.memberId },
            ...(typeof input.note === 'string' ? { note: input.note } : {}),
          },
        ],
        createdAt: now,
        updatedAt: now,
      }
      await r.referrals.insert(referral)
      await this.messages.request(r, referral, partner)
      await this.audit.record(r, actor, { action: 'create', recordType: 'referral', recordId: referral.id })
      return referralView(r, referral)
    })
  }
}

/** What a referral sends for its present state: shared by the first send and a send again. */
export class ReferralMessages {
  constructor(
    private readonly channel: FederationOutbox,
    private readonly clock: Clock,
  ) {}

  /** `referral.requested`: the person's consented details only while consent holds (none after it lapses). */
  async request(r: Repositories, referral: Referral, partner: ReferralPartner): Promise<void> {
    const note = referral.history[0]?.note
    const now = this.clock.now()
    const need = await r.needs.findById(referral.organizationId, referral.needId)
    const person = need?.constituentId ? await r.constituents.findById(referral.organizationId, need.constituentId) : undefined
    const shared = person && consentHolds(referral, now) ? sharedDetails(person, referral.consent?.fields ?? []) : {}
    const payload: RequestedPayload = {
      serviceId: referral.serviceId,
      person: shared,
      ...(note ? { note } : {}),
      sentAt: referral.createdAt.toISOString(),
    }
    await this.channel.send(r, partner, { type: REFERRAL_REQUESTED, referralId: referral.id, payload })
  }
}

/**
 * `referral.requested` at the receiver: a need in its inbox, routed to the partner that offers the service, its person
 * made by the receiver's own rules (a duplicate flagged as any new person is); which values came from the referral is
 * kept. A referral it holds already changes nothing; it answers `received` to the sender.
 */
export class ReferralRequestedHandler implements FederationHandler {
  readonly undelivered = notDelivered

  constructor(
    private readonly intake: NeedIntake,
    private readonly journal: ReferralJournal,
    private readonly clock: Clock,
    private readonly events: WebhookEvents,
    private readonly audit: AuditTrail,
  ) {}

  async handle(r: Repositories, partner: ReferralPartner, message: ReceivedMessage): Promise<undefined> {
    const payload = requestedPayloadOf(message.payload)
    const { organizationId } = partner
    if (!payload || !message.referralId) throw InvalidError.field('/payload', 'is no referral')
    if (await r.referrals.findById(organizationId, message.referralId)) return
    const service = await r.services.findById(organizationId, payload.serviceId)
    const offering =
      service && !service.isArchived && service.acceptingReferrals && (await r.partners.findById(organizationId, service.partnerId))
    if (!offering) throw InvalidError.field('/payload/serviceId', 'is no service that takes referrals')
    const { details } = readContactDetails(payload.person, '/payload/person', await phoneCountryOf(r, organizationId))
    const { need } = await this.intake.recordWhenChecked(
      r,
      organizationId,
      Promise.resolve({
        organizationId,
        partner: offering,
        customFields: { ...details, ...(payload.note ? { description: payload.note } : {}) },
        isConfidential: false,
      }),
    )
    const now = this.clock.now()
    const received: Referral = {
      id: message.referralId,
      organizationId,
      direction: 'in',
      referralPartnerId: partner.id,
      serviceId: payload.serviceId,
      needId: need.id,
      partnerId: offering.id,
      status: 'received',
      takenValues: details,
      history: [
        {
          status: 'requested',
          at: new Date(payload.sentAt),
          by: { organization: partner.name },
          ...(payload.note ? { note: payload.note } : {}),
        },
        { status: 'received', at: now, by: { organization: await organizationName(r, organizationId) } },
      ],
      createdAt: now,
      updatedAt: now,
    }
    await r.referrals.insert(received)
    await this.events.emit(r, organizationId, 'referral.received', { referralId: received.id, needId: need.id })
    await this.audit.record(r, { organizationId }, { action: 'create', recordType: 'referral', recordId: received.id })
    await this.journal.tell(r, received, received.history[1]!)
  }
}
