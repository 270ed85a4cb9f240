import { SetErrorFunction, ValueErrorType, type ErrorFunctionParameter } from '@sinclair/typebox/errors'
import { DATE_PATTERN, ZIP, ZIP_MEANING } from '../../domain/constituents/contact'
import { SHORT_CODE, SHORT_CODE_MEANING, SLUG, SLUG_MEANING } from '../../domain/organizations/organization'
import { EMAIL, EMAIL_MEANING, HTTP_URL, PHONE, PHONE_MEANING } from '../../domain/shared/fields'

/**
 * What a person reads when a request breaks a schema: TypeBox's own messages name regular expressions and
 * JSON types ("Expected string to match '^\+[1-9][0-9]{1,14}$'"). These say what the field must be, in the
 * words the domain's own checks use, and a pattern by what it means.
 */
const MEANING_OF_PATTERN = new Map<string, string>([
  [PHONE.pattern, PHONE_MEANING],
  [EMAIL.pattern, EMAIL_MEANING],
  [HTTP_URL.pattern, 'a web address starting with http:// or https://'],
  [DATE_PATTERN, 'a date written YYYY-MM-DD'],
  [ZIP.pattern, ZIP_MEANING],
  [SLUG.pattern, SLUG_MEANING],
  [SHORT_CODE.pattern, SHORT_CODE_MEANING],
])

/** A pattern of a schema with what it means to a person: the schema's value, registered for the messages. */
export function meaningful(pattern: string, meaning: string): string {
  // A pattern already known keeps its words: one pattern, one message, whichever field uses it.
  if (!MEANING_OF_PATTERN.has(pattern)) MEANING_OF_PATTERN.set(pattern, meaning)
  return pattern
}

const FORMATS: Record<string, string> = {
  uuid: 'must be an id (a UUID)',
  date: 'must be a real date written YYYY-MM-DD',
  'date-time': 'must be a date and time such as 2026-01-31T09:30:00Z',
}

export function validationMessage({ errorType, schema, errors }: ErrorFunctionParameter): string {
  const s = schema as Record<string, unknown>
  switch (errorType) {
    case ValueErrorType.Union:
      return unionMessage((s.anyOf ?? []) as Array<Record<string, unknown>>, errors)
    case ValueErrorType.ObjectRequiredProperty:
      return 'is required'
    case ValueErrorType.ObjectAdditionalProperties:
      return 'is not a field of this request'
    case ValueErrorType.String:
      return 'must be text'
    case ValueErrorType.StringMinLength:
      return s.minLength === 1 ? 'must not be empty' : `must be at least ${s.minLength} characters`
    case ValueErrorType.StringMaxLength:
      return `must be at most ${s.maxLength} characters`
    case ValueErrorType.StringPattern:
      return `must be ${MEANING_OF_PATTERN.get(String(s.pattern)) ?? 'in the documented form'}`
    case ValueErrorType.StringFormat:
      return FORMATS[String(s.format)] ?? 'is not in the documented form'
    case ValueErrorType.Integer:
      return 'must be a whole number'
    case ValueErrorType.Number:
      return 'must be a number'
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberMinimum:
      return `must be at least ${s.minimum}`
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.NumberMaximum:
      return `must be at most ${s.maximum}`
    case ValueErrorType.Boolean:
      return 'must be true or false'
    case ValueErrorType.Null:
      return 'must be null'
    case ValueErrorType.Object:
      return 'must be an object'
    case ValueErrorType.ObjectMinProperties:
      return s.minProperties === 1 ? 'must not be empty' : `must have at least ${s.minProperties} keys`
    case ValueErrorType.ObjectMaxProperties:
      return `may have at most ${s.maxProperties} keys`
    case ValueErrorType.Array:
      return 'must be a list'
    case ValueErrorType.ArrayMinItems:
      return `must have at least ${s.minItems} ${s.minItems === 1 ? 'item' : 'items'}`
    case ValueErrorType.ArrayMaxItems:
      return `must have at most ${s.maxItems} items`
    case ValueErrorType.ArrayUniqueItems:
      return 'must not name an item twice'
    case ValueErrorType.Literal:
      return `must be ${JSON.stringify(s.const)}`
    default:
      return 'is not valid here'
  }
}

/** A list of values, a query number (its integer forms), or a value that may also be null; else a catch-all. */
function unionMessage(variants: Array<Record<string, unknown>>, errors: ErrorFunctionParameter['errors']): string {
  const literals = variants.map((v) => v.const).filter((v) => v !== undefined)
  if (literals.length > 0 && literals.length === variants.length) return `must be one of: ${literals.join(', ')}`
  if (variants.some((v) => v.type === 'integer')) return 'must be a whole number'
  const nullable = variants.length === 2 && variants.some((v) => v.type === 'null')
  if (nullable) {
    const other = variants.findIndex((v) => v.type !== 'null')
    const message = errors[other]?.First()?.message
    if (message) return `${message}, or null`
  }
  return 'is not in an accepted form'
}

SetErrorFunction(validationMessage)
