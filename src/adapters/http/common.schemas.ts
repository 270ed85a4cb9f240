import type { TLiteral, TUnion } from '@sinclair/typebox'
import { Type } from '@sinclair/typebox'
import { withHeaders } from '@elysiajs/openapi'
import { t, type TSchema } from 'elysia'
import { CUSTOM_FIELDS_LIMITS } from '../../domain/needs/need'
import type { IntegerRule, ListRule, TextRule } from '../../domain/shared/fields'
import { IDEMPOTENCY_KEY, IDEMPOTENCY_KEY_MEANING } from '../../domain/shared/idempotency'
import { PAGE_LIMIT } from '../../domain/shared/page'
import { KIND_OF_STATUS, PROBLEM_LIMITS, TITLE_OF, typeOf } from './problem'
import { meaningful } from './validation-messages'

// Shared TypeBox pieces: every input and every answer is bounded here so the OpenAPI document shows its
// limits (docs/api/conventions.md "Errors", docs/api/openapi.md "OpenAPI lint").
export const Uuid = t.String({ format: 'uuid', maxLength: 36 })
/** What Date#toISOString writes: 24 characters, 27 with a six-digit year. */
export const DateTime = t.String({ format: 'date-time', maxLength: 27 })

/**
 * A string of an answer, bounded by the rule its input obeys, so every stored value fits: the tests check
 * answers against their schema (answer-checks.ts), and an answer that did not fit would fail. Only the
 * length is taken: the value passed the input's pattern when stored.
 */
export function Text(rule: Pick<TextRule, 'maxLength'>, options: { description?: string } = {}) {
  return t.String({ maxLength: rule.maxLength, ...options })
}

/**
 * A whole number, in a JSON body or an answer, with its bounds and format (int32: every integer of this
 * service fits). TypeBox's own integer, because Elysia's t.Integer also takes the string "24", and a wrong
 * type must be a 400 (docs/api/conventions.md "Errors"); query parameters, which are text, use QueryInteger.
 */
export function Int32(rule: IntegerRule, options: { description?: string } = {}) {
  return Type.Integer({ format: 'int32', minimum: rule.minimum, maximum: rule.maximum, ...options })
}

/** A list of an answer with at most as many items as its input takes (`rule`), or a page holds. */
export function List<T extends TSchema>(
  item: T,
  rule: Pick<ListRule, 'maxItems'> = { maxItems: PAGE_LIMIT.max },
  options: { description?: string } = {},
) {
  return t.Array(item, { maxItems: rule.maxItems, ...options })
}

/** What every list answer carries beside its page (docs/api/conventions.md "Lists"), as each kind of list describes it. */
function pagingHeaders(total: string, link: string) {
  return {
    'X-Total-Count': Int32({ minimum: 0, maximum: 2_147_483_647 }, { description: total }),
    Link: t.String({ maxLength: 4000, description: link }),
  }
}

const PAGING_HEADERS = pagingHeaders(
  'How many records the query matches in all, whatever the page',
  'RFC 8288 links to the first, prev, next and last pages of the same query',
)

/** A list answer: one page of items, its paging in X-Total-Count and Link. */
export function PagedList<T extends TSchema>(item: T) {
  return withHeaders(List(item), PAGING_HEADERS)
}

/**
 * A list answer whose total is counted up to a bound (a search's: docs/api/conventions.md "Lists"), and says so when
 * more match. `bound` is named in the descriptions.
 */
export function BoundedPagedList<T extends TSchema>(item: T, bound: number) {
  const upTo = bound.toLocaleString('en-US')
  return withHeaders(List(item), {
    ...pagingHeaders(
      `How many records the query matches, counted up to ${upTo} or to the end of the page asked for, whichever is further; exact unless X-Total-Count-Is-Lower-Bound is present`,
      'RFC 8288 links to the first, prev, next and last pages of the same query; no last while the total is a lower bound',
    ),
    'X-Total-Count-Is-Lower-Bound': t.Boolean({
      description: `Present, and true, only when counting stopped at X-Total-Count: more records match than it says (the console shows "more than ${upTo}"). Absent when the total is exact`,
    }),
  })
}

/** One of a fixed list of strings, documented as an enum and reported as "must be one of …". */
export function OneOf<const T extends readonly string[]>(values: T, options: { description?: string } = {}) {
  return t.Union(
    values.map((v) => t.Literal(v)),
    options,
  ) as unknown as TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }>
}

/** The free key-value object (docs/api/conventions.md "Errors": at most 50 keys; 16 KiB in all is checked by the use case). */
export const CustomFieldsSchema = t.Record(t.String({ maxLength: CUSTOM_FIELDS_LIMITS.maxKeyLength }), t.Unknown(), {
  maxProperties: CUSTOM_FIELDS_LIMITS.maxKeys,
  // Says "any key" to generators that do not read patternProperties (openapi-typescript); validation is the same.
  additionalProperties: true,
  description: 'Free key-value intake fields; at most 50 keys and 16 KiB as JSON. Contact keys are validated as constituent fields.',
})

/**
 * Marks a schema as one of the OpenAPI document's named components: the document lists it once under
 * components/schemas and refers to it everywhere it is used, so a generated client exports a type of that
 * name (docs/api/openapi.md "Clients"). Validation does not read the mark.
 */
export function Named<T extends TSchema>(name: string, schema: T): T {
  // A copy: a schema derived from this one (t.Omit, t.Composite) must not carry its name.
  return { ...schema, [COMPONENT_NAME]: name }
}

/** Where Named keeps a schema's name; the document's finishing step (openapi-document.ts) takes it out. */
export const COMPONENT_NAME = 'x-component-name'

/** Where Parameter keeps a parameter's name and how HTTP spells it; the document's finishing step takes it out. */
export const PARAMETER_NAME = 'x-parameter-name'

/**
 * Marks a header's schema as one of the document's named parameters: listed once under components/parameters
 * (as `spelled`, with the schema's description) and referred to by every route that takes it.
 */
function Parameter<T extends TSchema>(name: string, spelled: string, schema: T): T {
  return { ...schema, [PARAMETER_NAME]: { name, spelled } }
}

/** The headers of a create that takes an Idempotency-Key (docs/api/conventions.md "Retrying a create"). */
export const IdempotencyHeaders = t.Object({
  'idempotency-key': t.Optional(
    Parameter(
      'IdempotencyKey',
      'Idempotency-Key',
      t.String({
        ...IDEMPOTENCY_KEY,
        pattern: meaningful(IDEMPOTENCY_KEY.pattern, IDEMPOTENCY_KEY_MEANING),
        description:
          'Optional: 1 to 255 visible ASCII characters, a random UUID at best. A retry within 24 hours with the same key and the same request answers what the first made (the record as it reads now) and creates nothing; with another request, 422; while the first is still being processed, 409.',
      }),
    ),
  ),
})

export const IdParams = t.Object({ id: Uuid })

/**
 * A whole number in the query string: Elysia's t.Integer, which takes the text of a number, documented as
 * int32 and with its text as long as the largest number allowed.
 */
export function QueryInteger(rule: IntegerRule, options: { title: string; default?: number; description?: string }) {
  const schema = t.Integer({ format: 'int32', minimum: rule.minimum, maximum: rule.maximum, ...options })
  // The generator documents the text form as its first branch; Elysia gives that branch no options of its own.
  ;(schema.anyOf[0] as { maxLength?: number }).maxLength = String(rule.maximum).length
  return schema
}

// The titles name the parameter in a 400: Elysia checks coerced query numbers one by one, without their name.
export const PageQuery = {
  page: t.Optional(QueryInteger({ minimum: 1, maximum: 1_000_000 }, { title: 'page', default: 1, description: 'Page number, from 1' })),
  limit: t.Optional(
    QueryInteger({ minimum: 1, maximum: PAGE_LIMIT.max }, { title: 'limit', default: PAGE_LIMIT.default, description: 'Page size' }),
  ),
}

/** The problem kinds whose status a route can answer, in status order. */
const PROBLEM_KINDS = [...KIND_OF_STATUS.values()]

const ProblemFields = {
  type: OneOf(PROBLEM_KINDS.map(typeOf), {
    description: 'The kind of problem, a tag URI the same on every deployment: match on this, not on title',
  }),
  title: OneOf(
    PROBLEM_KINDS.map((kind) => TITLE_OF[kind]),
    { description: "The status's one title" },
  ),
  status: Int32({ minimum: 400, maximum: 599 }, { description: 'The HTTP status, repeated' }),
  detail: Text({ maxLength: PROBLEM_LIMITS.detail }, { description: 'What went wrong in particular, in words a person reads' }),
}

/** RFC 9457 problem details (docs/api/conventions.md "Errors"), every text bounded as problem.ts writes it. */
export const ProblemSchema = Named(
  'Problem',
  t.Object(ProblemFields, { description: 'RFC 9457 problem details (application/problem+json): every error but 400' }),
)

export const FieldErrorSchema = Named(
  'FieldError',
  t.Object(
    {
      path: Text(
        { maxLength: PROBLEM_LIMITS.path },
        { description: 'A JSON pointer into the body (/customFields/phone), or query/… and params/…' },
      ),
      message: Text({ maxLength: PROBLEM_LIMITS.message }, { description: 'What the field must be' }),
    },
    { description: 'One offending field' },
  ),
)

/** A 400: a problem that lists the offending fields, each once (absent when the body could not be read at all). */
export const ValidationProblemSchema = Named(
  'ValidationProblem',
  t.Object(
    { ...ProblemFields, errors: t.Optional(List(FieldErrorSchema, { maxItems: PROBLEM_LIMITS.errors })) },
    { description: 'RFC 9457 problem details (application/problem+json) of a 400, with the offending fields in errors' },
  ),
)

/** Headers an error answer always carries, by status (docs/api/conventions.md "Errors", docs/api/access.md "Tokens"). */
const PROBLEM_HEADERS: Record<number, Record<string, TSchema>> = {
  401: {
    'WWW-Authenticate': t.String({
      maxLength: 300,
      description: 'The Bearer challenge (RFC 6750): error="invalid_token" when a token was refused',
    }),
  },
  503: { 'Retry-After': Int32({ minimum: 1, maximum: 3600 }, { description: 'Seconds to wait before trying again' }) },
}

/** The problem a status answers, for the OpenAPI document: 400 a ValidationProblem, every other a Problem, with the status's headers. */
export function Problem(status: number): TSchema {
  if (!KIND_OF_STATUS.has(status)) throw new Error(`No problem kind answers status ${status}`)
  const schema = status === 400 ? ValidationProblemSchema : ProblemSchema
  const headers = PROBLEM_HEADERS[status]
  return headers ? withHeaders(schema, headers) : schema
}

/** The error answers a route can give, each documented with the problem of its status. */
export function problems(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((status) => [status, Problem(status)]))
}

/** Strict request bodies: an unknown property is a 400 (docs/api/conventions.md "Errors"). */
export function Body<T extends Parameters<typeof t.Object>[0]>(properties: T, description?: string) {
  return t.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) })
}
