import { meaningful } from './validation-messages'
import type { TNull, TOptional, TString, TUnion } from '@sinclair/typebox'
import { t, type TSchema } from 'elysia'
import type { Constituent } from '../../domain/constituents/constituent'
import { CONTACT, type ContactFieldDescriptor } from '../../domain/constituents/contact'
import { MATCH_STATUSES, reasonsOf, RESOLVE_ACTIONS } from '../../domain/constituents/household-match'
import { DUPLICATE_WARNING, MATCH_REASONS } from '../../domain/constituents/matching'
import type { MatchForReview } from '../../application/constituents/list-household-matches'
import { Body, DateTime, Named, OneOf, PageQuery, Text, Uuid } from './common.schemas'
import { ExportFormatQuery } from './exports'

/** A field's schema: its values, or text under its rule, its pattern's words registered for the messages. */
type SchemaOf<D> = D extends { values: infer Vs extends readonly string[] } ? ReturnType<typeof OneOf<Vs>> : TString

function fieldSchema(descriptor: ContactFieldDescriptor): TSchema {
  const description = descriptor.description === undefined ? {} : { description: descriptor.description }
  if ('values' in descriptor) return OneOf(descriptor.values, description)
  const { pattern, ...limits } = descriptor.rule
  const meant =
    pattern === undefined ? {} : { pattern: descriptor.meaning === undefined ? pattern : meaningful(pattern, descriptor.meaning) }
  return t.String({ ...meant, ...limits, ...(descriptor.format ? { format: descriptor.format } : {}), ...description })
}

/** The schemas of constituent fields, derived from their descriptors (contact.ts), which the domain checks for every caller. */
export function contactSchemas<const Ds extends Record<string, ContactFieldDescriptor>>(
  descriptors: Ds,
): { [K in keyof Ds]: SchemaOf<Ds[K]> } {
  return Object.fromEntries(Object.entries(descriptors).map(([name, descriptor]) => [name, fieldSchema(descriptor)])) as never
}

// docs/constituents.md.
const fields = contactSchemas(CONTACT)
function optional<T extends Record<string, TSchema>>(schemas: T) {
  return Object.fromEntries(Object.entries(schemas).map(([k, v]) => [k, t.Optional(v)])) as { [K in keyof T]: TOptional<T[K]> }
}

/** Optional fields that also take `null`, which clears the field. */
function clearable<T extends Record<string, TSchema>>(schemas: T) {
  return Object.fromEntries(Object.entries(schemas).map(([k, v]) => [k, t.Optional(t.Union([v, t.Null()]))])) as {
    [K in keyof T]: TOptional<TUnion<[T[K], TNull]>>
  }
}

export const ConstituentSchema = Named(
  'Constituent',
  t.Object(
    {
      id: Uuid,
      householdId: Uuid,
      ...optional(fields),
      erasedAt: t.Optional(
        t.String({ ...DateTime, description: "When the person's details were erased; the record then holds none of them" }),
      ),
    },
    { description: 'A person served; phone, email, address and date of birth appear only with the permission to read them' },
  ),
)

/** Who a new constituent may be already, and why (docs/constituents.md "Duplicate detection"). */
export const PossibleDuplicatesSchema = Named(
  'PossibleDuplicates',
  t.Array(t.Object({ constituentId: Uuid, reasons: t.Array(OneOf(MATCH_REASONS), { minItems: 1, maxItems: 4 }) }), {
    maxItems: 80,
    description:
      'Constituents this one may be, each with what they share, matched on the details the caller may read only (a detail it may not read is not matched on: the answer is the same whether or not it is on file); present only when there are some',
  }),
)

export const CreatedConstituentSchema = Named(
  'CreatedConstituent',
  t.Composite(
    [
      ConstituentSchema,
      t.Object({
        possibleDuplicates: t.Optional(PossibleDuplicatesSchema),
        duplicateWarning: t.Optional(
          Text(DUPLICATE_WARNING, {
            description: 'The possible duplicates shown, as one sentence with their count and reasons; present whenever there are some',
          }),
        ),
      }),
    ],
    { description: 'The new constituent, and who it may be already' },
  ),
)

export const TextsStoppedAt = t.Optional({
  ...DateTime,
  description: "When the person's number opted out of the organization's texts (STOP, ALTO…); absent while it may be texted",
})

export const ConstituentDetailSchema = Named(
  'ConstituentDetail',
  t.Composite([ConstituentSchema, t.Object({ textsStoppedAt: TextsStoppedAt })], {
    description: 'A constituent, and when texts to its number stopped',
  }),
)

export const DuplicateCheckBody = Named(
  'DuplicateCheckDetails',
  Body(optional(fields), 'The details of a person about to be registered: those duplicate detection compares'),
)

export const DuplicateCheckSchema = Named(
  'DuplicateCheck',
  t.Object({
    possibleDuplicates: t.Array(
      t.Object({
        constituentId: Uuid,
        firstName: t.Optional(fields.firstName),
        lastName: t.Optional(fields.lastName),
        reasons: t.Array(OneOf(MATCH_REASONS), { minItems: 1, maxItems: 4 }),
      }),
      {
        maxItems: 80,
        description:
          'Who the person may be already, by name, each with what they share, matched on the details the caller may read only (a detail it may not read is not matched on: the answer is the same whether or not it is on file); empty when none',
      },
    ),
    duplicateWarning: t.Optional(
      Text(DUPLICATE_WARNING, {
        description: 'The possible duplicates shown, as one sentence with their count and reasons; present whenever there are some',
      }),
    ),
  }),
)

export const CreateConstituentBody = Named(
  'NewConstituent',
  Body({ ...optional(fields), householdId: t.Optional(Uuid) }, 'A new constituent; in a new household unless householdId names one'),
)

export const UpdateConstituentBody = Named('ConstituentUpdate', Body(clearable(fields), 'Fields to change; null clears a field'))

const { firstName, lastName, ...clearableOverrides } = fields
const FieldOverrides = t.Object(
  { firstName: t.Optional(firstName), lastName: t.Optional(lastName), ...clearable(clearableOverrides) },
  { additionalProperties: false, description: 'Values the merged constituent takes; null clears a field' },
)

export const MergeBody = Named(
  'ConstituentMerge',
  Body({
    sourceConstituentId: Uuid,
    targetConstituentId: Uuid,
    mergeHouseholds: t.Optional(t.Boolean()),
    fieldOverrides: t.Optional(FieldOverrides),
  }),
)

export const ResolveMatchBody = Named(
  'HouseholdMatchResolution',
  Body({
    action: OneOf(RESOLVE_ACTIONS),
    targetConstituentId: t.Optional(Uuid),
    fieldOverrides: t.Optional(FieldOverrides),
  }),
)

const QueryText = { query: t.Optional(t.String({ maxLength: 200, description: 'Name prefixes, phone digits or an email' })) }

export const SearchQuery = t.Object({ ...QueryText, ...PageQuery }, { additionalProperties: false })

export const ExportConstituentsQuery = t.Object({ ...QueryText, ...ExportFormatQuery }, { additionalProperties: false })

export const MatchesQuery = t.Object({ status: t.Optional(OneOf(MATCH_STATUSES)), ...PageQuery }, { additionalProperties: false })

export const HouseholdMatchSchema = Named(
  'HouseholdMatch',
  t.Object(
    {
      id: Uuid,
      organizationId: Uuid,
      constituentId: Uuid,
      candidateConstituentId: Uuid,
      constituent: t.Optional(
        t.Composite([ConstituentSchema], {
          description: 'The constituent found to resemble the candidate; absent once merged into another',
        }),
      ),
      candidate: t.Optional(
        t.Composite([ConstituentSchema], { description: 'The constituent it resembles; absent once merged into another' }),
      ),
      reason: t.String({ maxLength: 200, description: 'The reasons as one text, e.g. "same phone, same email"' }),
      reasons: t.Array(OneOf(MATCH_REASONS), { minItems: 1, maxItems: 4, description: 'Why the two may be one person' }),
      status: OneOf(MATCH_STATUSES),
      createdAt: DateTime,
      resolvedAt: t.Optional(DateTime),
      resolvedBy: t.Optional(Uuid),
      action: t.Optional(OneOf(RESOLVE_ACTIONS)),
    },
    { description: 'A possible duplicate, with both people as the caller may read them and why they may be one person' },
  ),
)

/** The interface's fields only: no organization, no timestamps. */
export function constituentView<T extends Constituent & { textsStoppedAt?: Date }>({
  organizationId: _o,
  createdAt: _c,
  updatedAt: _u,
  erasedAt,
  textsStoppedAt,
  ...visible
}: T) {
  return {
    ...visible,
    ...(erasedAt ? { erasedAt: erasedAt.toISOString() } : {}),
    ...(textsStoppedAt ? { textsStoppedAt: textsStoppedAt.toISOString() } : {}),
  }
}

export function matchView({ createdAt, resolvedAt, constituent, candidate, ...match }: MatchForReview) {
  return {
    ...match,
    ...(constituent ? { constituent: constituentView(constituent) } : {}),
    ...(candidate ? { candidate: constituentView(candidate) } : {}),
    reasons: reasonsOf(match),
    createdAt: createdAt.toISOString(),
    ...(resolvedAt ? { resolvedAt: resolvedAt.toISOString() } : {}),
  }
}
