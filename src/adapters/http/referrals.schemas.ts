import { t } from 'elysia'
import type { ReferralView } from '../../application/referrals/read-referrals'
import { CONTACT_FIELDS, type ContactField } from '../../domain/constituents/contact'
import {
  CONSENT_FIELDS,
  CONSENT_METHODS,
  REFERRAL_DIRECTIONS,
  REFERRAL_NOTE,
  REFERRAL_OUTCOMES,
  REFERRAL_STATUSES,
} from '../../domain/referrals/referral'
import { FREE_TEXT, NAME } from '../../domain/shared/fields'
import { Body, DateTime, List, Named, OneOf, PageQuery, Text, Uuid } from './common.schemas'

// docs/referrals.md "Referrals"

const Status = OneOf(REFERRAL_STATUSES, { description: "FHIR Task's status" })
const Outcome = OneOf(REFERRAL_OUTCOMES)
const Note = (description: string) => Text(REFERRAL_NOTE, { description })

const ConsentSchema = t.Object(
  {
    obtainedAt: DateTime,
    method: OneOf(CONSENT_METHODS),
    expiresAt: DateTime,
    fields: List(OneOf(CONTACT_FIELDS as readonly ContactField[] as [ContactField]), CONSENT_FIELDS, {
      description: "The person's contact fields that may travel",
    }),
  },
  { description: "The person's consent to share, kept by the sender" },
)

const MoveSchema = t.Object({
  status: Status,
  at: DateTime,
  by: t.Object({
    organization: t.String({ maxLength: NAME.maxLength, description: 'The organization that made the move' }),
    member: t.Optional(Uuid),
  }),
  note: t.Optional(Note("A decline's reason, a completion's note")),
})

export const ReferralSchema = Named(
  'Referral',
  t.Object(
    {
      id: Uuid,
      direction: OneOf(REFERRAL_DIRECTIONS, { description: 'out: sent by this organization; in: received' }),
      status: Status,
      referralPartner: t.Object({ id: Uuid, name: t.String({ maxLength: NAME.maxLength }) }),
      serviceId: t.String({ maxLength: 100, description: "The receiver's service" }),
      needId: Uuid,
      outcome: t.Optional(Outcome),
      consent: t.Optional(ConsentSchema),
      consentRevokedAt: t.Optional(DateTime),
      notDelivered: t.Optional(t.Boolean({ description: 'A message about it ran out of tries: send it again' })),
      history: List(MoveSchema, { maxItems: REFERRAL_STATUSES.length }),
      createdAt: DateTime,
      updatedAt: DateTime,
    },
    { description: "One organization's side of a referral; the id is the same on both sides" },
  ),
)

const iso = (date: Date) => date.toISOString()

export const referralView = (referral: ReferralView) => {
  const { consent, consentRevokedAt, history, createdAt, updatedAt, ...rest } = referral
  return {
    ...rest,
    ...(consent ? { consent: { ...consent, obtainedAt: iso(consent.obtainedAt), expiresAt: iso(consent.expiresAt) } } : {}),
    ...(consentRevokedAt ? { consentRevokedAt: iso(consentRevokedAt) } : {}),
    history: history.map((move) => ({ ...move, at: iso(move.at) })),
    createdAt: iso(createdAt),
    updatedAt: iso(updatedAt),
  }
}

export const SendReferralBody = Body({
  referralPartnerId: Uuid,
  serviceId: t.String({ minLength: 1, maxLength: 100, description: "The partner's service (GET /api/referral-partners/{id}/services)" }),
  consent: t.Optional(ConsentSchema),
  note: t.Optional(Note('Travels with the referral')),
})

export const DeclineBody = Body({ reason: t.String({ ...REFERRAL_NOTE, minLength: 1 }) })
export const CompleteBody = Body({ outcome: Outcome, note: t.Optional(Note('How it went')) })

export const ReferralQuery = t.Object(
  { direction: t.Optional(OneOf(REFERRAL_DIRECTIONS)), status: t.Optional(Status), ...PageQuery },
  { additionalProperties: false },
)

export const OfferedServiceSchema = Named(
  'OfferedService',
  t.Object({
    id: t.String({ maxLength: 100 }),
    name: t.String({ maxLength: NAME.maxLength }),
    description: t.Optional(t.String({ maxLength: FREE_TEXT.maxLength })),
  }),
)
