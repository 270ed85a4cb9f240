import type { TLiteral, TUnion } from '@sinclair/typebox'
import { Type } from '@sinclair/typebox'
import { t, type TSchema } from 'elysia'
import { CUSTOM_FIELDS_LIMITS } from '../../domain/needs/need'
import { PAGE_LIMIT } from '../../domain/shared/page'

// Shared TypeBox pieces: every input is bounded here so the OpenAPI document shows its limits (docs/api.md "Errors").
export const Uuid = t.String({ format: 'uuid', maxLength: 36 })
export const DateTime = t.String({ format: 'date-time' })

/** One of a fixed list of strings, documented as an enum and reported as "must be one of …". */
export function OneOf<const T extends readonly string[]>(values: T, options: { description?: string } = {}) {
  return t.Union(
    values.map((v) => t.Literal(v)),
    options,
  ) as unknown as TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }>
}

/** The free key-value object (docs/api.md "Errors": at most 50 keys; 16 KiB in all is checked by the use case). */
export const CustomFieldsSchema = t.Record(t.String({ maxLength: CUSTOM_FIELDS_LIMITS.maxKeyLength }), t.Unknown(), {
  maxProperties: CUSTOM_FIELDS_LIMITS.maxKeys,
  // Says "any key" to generators that do not read patternProperties (openapi-typescript); validation is the same.
  additionalProperties: true,
  description: 'Free key-value intake fields; at most 50 keys and 16 KiB as JSON. Contact keys are validated as constituent fields.',
})

export const IdParams = t.Object({ id: Uuid })

/**
 * An integer in a JSON body: TypeBox's own, because Elysia's t.Integer also takes the string "24", and a
 * wrong type must be a 400 (docs/api.md "Errors"). Query parameters, which are text, keep t.Integer.
 */
export const BodyInteger = (options: Parameters<typeof Type.Integer>[0]) => Type.Integer(options)

// The titles name the parameter in a 400: Elysia checks coerced query numbers one by one, without their name.
export const PageQuery = {
  page: t.Optional(t.Integer({ title: 'page', minimum: 1, maximum: 1_000_000, default: 1, description: 'Page number, from 1' })),
  limit: t.Optional(t.Integer({ title: 'limit', minimum: 1, maximum: PAGE_LIMIT.max, default: PAGE_LIMIT.default, description: 'Page size' })),
}

export const Problem = t.Object(
  {
    type: t.String(),
    title: t.String(),
    status: t.Integer(),
    detail: t.String(),
    errors: t.Optional(t.Array(t.Object({ path: t.String(), message: t.String() }))),
  },
  { description: 'RFC 9457 problem details (application/problem+json)' },
)

/** The error answers a route can give, each documented with the problem schema. */
export function problems(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((status) => [status, Problem]))
}

/** Strict request bodies: an unknown property is a 400 (docs/api.md "Errors"). */
export function Body<T extends Parameters<typeof t.Object>[0]>(properties: T, description?: string) {
  return t.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) })
}
