import { t } from 'elysia'
import { INTERACTION_CHANNELS, INTERACTION_CONTENT, NOTE_CONTENT, SENDER_IDENTIFIER } from '../../domain/needs/interaction'
import type { InteractionView } from '../../domain/needs/redaction'
import { DELIVERY_STATUSES, PROVIDER_MESSAGE_ID, SMS_BODY } from '../../domain/messaging/sms'
import {
  CHANGE_VALUE,
  NEED_STATUSES,
  PUBLIC_DESCRIPTION,
  REFERENCE_NUMBER,
  TRACKED_FIELDS,
  type Need,
  type NeedChange,
} from '../../domain/needs/need'
import { DUPLICATE_WARNING } from '../../domain/constituents/matching'
import { Body, CustomFieldsSchema, DateTime, Int32, Named, OneOf, PageQuery, Text, Uuid, ValidationProblemSchema } from './common.schemas'
import type { BulkUpdateResult } from '../../application/needs/bulk-update-needs'
import { BULK_NEED_IDS } from '../../domain/needs/bulk-update'
import { PERIOD_FILTERS, type SavedViewFilters } from '../../domain/members/saved-view'
import { problemOf } from './problem'
import type { NeedListFilter } from '../../application/needs/list-needs'
import { NEED_SORTS } from '../../domain/needs/search'
import { ExportFormatQuery } from './exports'
import { SLUG } from '../../domain/organizations/organization'
import { MAIL_LANGUAGES } from '../../domain/members/notifications'
import { PossibleDuplicatesSchema, TextsStoppedAt } from './constituents.schemas'
import { CANNOT_TEXT_REASONS } from '../../domain/messaging/can-text'

export const NeedStatusSchema = Named('NeedStatus', OneOf(NEED_STATUSES, { description: 'Need status' }))

export const NeedSchema = Named(
  'Need',
  t.Object(
    {
      id: Uuid,
      organizationId: Uuid,
      partnerId: Uuid,
      status: NeedStatusSchema,
      customFields: CustomFieldsSchema,
      isConfidential: t.Boolean(),
      parentNeedId: t.Optional(Uuid),
      assignedTo: t.Optional(Uuid),
      createdBy: t.Optional(Uuid),
      createdAt: DateTime,
      updatedAt: DateTime,
      dueDate: t.Optional({ ...DateTime, description: "When the need is due: set by hand, or creation plus the partner's slaHours" }),
      dueDateSetByHand: t.Boolean({
        description: "Whether dueDate was set by hand (kept when the need moves) rather than the partner's SLA",
      }),
      resolvedAt: t.Optional({ ...DateTime, description: 'When the need was resolved; absent while it is open' }),
      constituentId: t.Optional(Uuid),
      householdId: t.Optional(Uuid),
      duplicateWarning: t.Optional(
        Text(DUPLICATE_WARNING, {
          description:
            'Who the constituent this need registered may be already, as one sentence: whole to whoever may read every matched detail; to others, without count, the reasons they may read, and absent when they may read none',
        }),
      ),
      referenceNumber: Text(REFERENCE_NUMBER, { description: 'Human-readable reference such as FOOD-1001' }),
      needsAttention: t.Boolean({
        description:
          'true: the person texted after all their needs were resolved and no member has answered since (a text, a note or a change clears it); the status is unchanged',
      }),
    },
    { description: 'A request for assistance' },
  ),
)

export const NeedDetailSchema = Named(
  'NeedDetail',
  t.Composite(
    [
      NeedSchema,
      t.Object({
        canText: t.Boolean({ description: "Whether staff may text the need's person now (POST /api/needs/{id}/sms)" }),
        cannotTextReason: t.Optional(
          OneOf(CANNOT_TEXT_REASONS, {
            description:
              'Why not, when canText is false: no-phone (no constituent, or no phone), opted-out (the number texted STOP), provider-log (texts go to the log and reach nobody), no-sms-number (the organization has none), limit-reached (the texts one number may be sent per hour)',
          }),
        ),
        textsStoppedAt: TextsStoppedAt,
      }),
    ],
    { description: 'A need, and whether its person may be texted' },
  ),
)

export const CreatedNeedSchema = Named(
  'CreatedNeed',
  t.Composite([NeedSchema, t.Object({ possibleDuplicates: t.Optional(PossibleDuplicatesSchema) })], {
    description: 'The new need; when its contact keys made a constituent who may be on file already, who and why',
  }),
)

export const PublicNeedSchema = Named(
  'PublicNeed',
  t.Omit(NeedSchema, ['duplicateWarning', 'constituentId', 'householdId'], {
    description: 'The created need as an anonymous caller sees it',
  }),
)

const DueDateInput = t.Union([DateTime, t.Null()], {
  description: "When the need is due, set by hand (a move to another partner keeps it); null: creation plus the partner's slaHours",
})

/** A body's due date as the use cases take it: a time, or null for the partner's SLA. */
export function withDueDate<T extends { dueDate?: string | null }>({
  dueDate,
  ...body
}: T): Omit<T, 'dueDate'> & { dueDate?: Date | null } {
  return { ...body, ...(dueDate === undefined ? {} : { dueDate: dueDate === null ? null : new Date(dueDate) }) }
}

export const CreateNeedBody = Named(
  'NewNeed',
  Body({
    partnerId: Uuid,
    status: t.Optional(NeedStatusSchema),
    customFields: t.Optional(CustomFieldsSchema),
    isConfidential: t.Optional(t.Boolean()),
    parentNeedId: t.Optional(Uuid),
    assignedTo: t.Optional(Uuid),
    constituentId: t.Optional(Uuid),
    householdId: t.Optional(Uuid),
    dueDate: t.Optional(DueDateInput),
  }),
)

export const PublicNeedBody = Named(
  'NewPublicNeed',
  Body({
    organizationId: t.Optional(
      t.String({ ...Uuid, description: 'The organization; give this or organizationSlug (both must then name the same one)' }),
    ),
    organizationSlug: t.Optional(
      t.String({
        ...SLUG,
        description: "The organization's slug (or one it has left), as a web form knows it; give this or organizationId",
      }),
    ),
    description: t.String({ ...PUBLIC_DESCRIPTION, description: 'What the person needs, in their words' }),
    partnerId: t.Optional(Uuid),
    customFields: t.Optional(CustomFieldsSchema),
    isConfidential: t.Optional(t.Boolean()),
    parentNeedId: t.Optional(Uuid),
    constituentId: t.Optional(Uuid),
    householdId: t.Optional(Uuid),
    language: t.Optional(
      OneOf(MAIL_LANGUAGES, {
        description: 'The language the person asked in (default en): that of the confirmation sent to it when the organization sends them',
      }),
    ),
  }),
)

export const UpdateNeedBody = Named(
  'NeedUpdate',
  Body({
    status: t.Optional(NeedStatusSchema),
    assignedTo: t.Optional(t.Union([Uuid, t.Null()], { description: 'A member of the organization; null unassigns the need' })),
    partnerId: t.Optional(Uuid),
    customFields: t.Optional(CustomFieldsSchema),
    isConfidential: t.Optional(t.Boolean()),
    dueDate: t.Optional(DueDateInput),
  }),
)

export const BulkUpdateNeedsBody = Named(
  'BulkNeedUpdate',
  Body({
    ids: t.Array(t.String({ minLength: 1, ...REFERENCE_NUMBER, description: 'A need UUID or reference number (case-insensitive)' }), {
      ...BULK_NEED_IDS,
      description: 'The needs to change, each once',
    }),
    set: t.Object(
      {
        status: t.Optional(NeedStatusSchema),
        assignedTo: t.Optional(t.Union([Uuid, t.Null()], { description: 'A member of the organization; null unassigns the needs' })),
        partnerId: t.Optional(Uuid),
      },
      { additionalProperties: false, minProperties: 1, description: 'What to set on each need, as `PUT /api/needs/{id}` takes it' },
    ),
  }),
)

export const BulkUpdateResultsSchema = Named(
  'BulkNeedUpdateResults',
  t.Object(
    {
      results: t.Array(
        t.Object(
          {
            id: Text(REFERENCE_NUMBER, { description: 'The id or reference number as the request gave it' }),
            status: Int32(
              { minimum: 200, maximum: 599 },
              { description: "The status `PUT /api/needs/{id}` would have answered for this need alone: 200, or its problem's" },
            ),
            problem: t.Optional(ValidationProblemSchema),
          },
          { description: 'What came of one need' },
        ),
        { maxItems: BULK_NEED_IDS.maxItems, description: "One result per id, in the request's order" },
      ),
    },
    { description: 'What came of each need' },
  ),
)

/** A bulk change's results as JSON: each need's status, and its problem when it was refused. */
export function bulkResultsView(results: BulkUpdateResult[]) {
  return {
    results: results.map((result) => {
      if ('need' in result) return { id: result.id, status: 200 }
      const problem = problemOf(result.error)
      // The schema lists the types and titles as values it cannot type: they are problem.ts's own.
      return { id: result.id, status: problem.status, problem: problem as never }
    }),
  }
}

/** The list's filters, shared by the list and its export. */
export const NeedFilterQuery = {
  status: t.Optional(
    t.Array(NeedStatusSchema, {
      title: 'status',
      minItems: 1,
      maxItems: NEED_STATUSES.length,
      description: 'One status, or several separated by commas: needs in any of them',
    }),
  ),
  partnerId: t.Optional(Uuid),
  assignedTo: t.Optional(Uuid),
  constituentId: t.Optional(Uuid),
  overdue: t.Optional(t.Boolean({ description: "true: open needs past their dueDate, as of the service's clock (false is no filter)" })),
  dueBefore: t.Optional({ ...DateTime, description: 'Open needs due before this time' }),
  createdFrom: t.Optional({ ...DateTime, description: 'Needs created at or after this time' }),
  createdTo: t.Optional({ ...DateTime, description: 'Needs created before this time' }),
  resolvedFrom: t.Optional({ ...DateTime, description: 'Needs resolved (and not reopened since) at or after this time' }),
  resolvedTo: t.Optional({ ...DateTime, description: 'Needs resolved (and not reopened since) before this time' }),
  attention: t.Optional(
    t.Boolean({ description: 'true: needs marked for attention (needsAttention), resolved ones included (false is no filter)' }),
  ),
  q: t.Optional(
    t.String({
      maxLength: 200,
      description:
        "Words, each the beginning of a word of the need's reference number, its description or the person's name it recorded, as far as the caller may read them",
    }),
  ),
}

export const ListNeedsQuery = t.Object(
  {
    ...NeedFilterQuery,
    sort: t.Optional(
      OneOf(NEED_SORTS, {
        description: 'The order: a field, descending with a leading -. Default -createdAt, or soonest due first with overdue or dueBefore',
      }),
    ),
    ...PageQuery,
  },
  { additionalProperties: false },
)

export const ExportNeedsQuery = t.Object({ ...NeedFilterQuery, ...ExportFormatQuery }, { additionalProperties: false })

/** The use cases' filter from the query's. */
export function needFilterOf(query: Omit<SavedViewFilters, 'sort'>): NeedListFilter {
  return {
    ...(query.status ? { statuses: query.status } : {}),
    ...(query.partnerId ? { partnerId: query.partnerId } : {}),
    ...(query.assignedTo ? { assignedTo: query.assignedTo } : {}),
    ...(query.constituentId ? { constituentId: query.constituentId } : {}),
    ...(query.overdue ? { overdue: true } : {}),
    ...(query.dueBefore ? { dueBefore: new Date(query.dueBefore) } : {}),
    ...Object.fromEntries(PERIOD_FILTERS.flatMap((key) => (query[key] ? [[key, new Date(query[key])]] : []))),
    ...(query.attention ? { needsAttention: true } : {}),
    ...(query.q ? { q: query.q } : {}),
  }
}

export const NeedIdOrReferenceParams = t.Object({
  id: t.String({ minLength: 1, ...REFERENCE_NUMBER, description: 'The need UUID or its reference number (case-insensitive)' }),
})

export const NoteBody = Named('NewNote', Body({ content: t.String(NOTE_CONTENT) }))

export const InteractionSchema = Named(
  'Interaction',
  t.Object(
    {
      id: Uuid,
      organizationId: Uuid,
      partnerId: t.Optional(Uuid),
      needId: t.Optional(Uuid),
      channel: OneOf(INTERACTION_CHANNELS),
      senderIdentifier: t.Optional(
        Text(SENDER_IDENTIFIER, {
          description:
            "A note's author, the organization's number, or the number an inbound text came from; that number only to those who may read the person's phone (left out otherwise)",
        }),
      ),
      content: t.Optional(Text(INTERACTION_CONTENT)),
      deliveryStatus: t.Optional(OneOf(DELIVERY_STATUSES, { description: 'Outbound SMS: queued, sent, delivered or failed' })),
      providerMessageId: t.Optional(Text(PROVIDER_MESSAGE_ID, { description: "The SMS provider's message id" })),
      deliveryError: t.Optional(
        Text(INTERACTION_CONTENT, { description: 'A failed SMS: why it was not delivered, in words (the provider’s reason)' }),
      ),
      sentBy: t.Optional(
        t.Object(
          { id: Uuid, fullName: Text(SENDER_IDENTIFIER, { description: 'Their full name, or their email when they gave none' }) },
          { description: 'Outbound SMS a member sent: who; absent for texts from the person and the service’s own' },
        ),
      ),
      recipient: t.Optional(
        Text(SENDER_IDENTIFIER, {
          description: "A reply sent while the texts were on no need: the number it went to; only to those who may read the person's phone",
        }),
      ),
      createdAt: DateTime,
    },
    { description: 'A note or message on a need' },
  ),
)

export const NeedChangeSchema = Named(
  'NeedChange',
  t.Object(
    {
      id: Uuid,
      field: OneOf(TRACKED_FIELDS, { description: 'The field that changed' }),
      from: t.Optional(
        Text(CHANGE_VALUE, { description: 'The value before; absent when the field had none (creation, a first assignment)' }),
      ),
      to: t.Optional(Text(CHANGE_VALUE, { description: 'The value after; absent when the field was cleared' })),
      changedBy: t.Optional(Uuid),
      changedAt: DateTime,
    },
    { description: 'One recorded change of a need: who changed which field from what to what, and when' },
  ),
)

export const SmsBody = Named('NewSms', Body({ body: t.String({ ...SMS_BODY, description: 'The message text' }) }))

/**
 * A need as JSON: times as ISO-8601 UTC with milliseconds. An absent time stays undefined, which JSON
 * leaves out: one copy of the need, not one per optional time (a page makes 25).
 */
export function needView<T extends Partial<Need> & Pick<Need, 'createdAt' | 'updatedAt'> & { textsStoppedAt?: Date }>({
  textsStoppedAt,
  ...need
}: T) {
  return {
    ...need,
    ...(textsStoppedAt ? { textsStoppedAt: textsStoppedAt.toISOString() } : {}),
    createdAt: need.createdAt.toISOString(),
    updatedAt: need.updatedAt.toISOString(),
    dueDate: need.dueDate?.toISOString(),
    resolvedAt: need.resolvedAt?.toISOString(),
    needsAttention: need.needsAttention === true,
  }
}

/** A history entry as JSON: the need and organization are the path's. */
export function needChangeView({ organizationId: _organization, needId: _need, changedAt, ...change }: NeedChange) {
  return { ...change, changedAt: changedAt.toISOString() }
}

/** An interaction as JSON: the interface's fields and the delivery of a text; whom it concerns stays inside. */
export function interactionView({ constituentId: _constituent, direction: _direction, createdAt, ...interaction }: InteractionView) {
  return { ...interaction, createdAt: createdAt.toISOString() }
}
