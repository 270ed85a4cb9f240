import type { FieldError } from '../errors'
import { ILL_FORMED_TEXT } from './unicode'

/**
 * The rules of input fields, written once: the parsers of each aggregate check them for every caller, and
 * the HTTP schemas spread the same objects into TypeBox (`t.String(EMAIL)`), so both say the same thing.
 * Rules hold JSON-schema keywords only; what a pattern means to a person is given where it is checked.
 */
export interface TextRule {
  readonly minLength?: number
  readonly maxLength: number
  readonly pattern?: string
}

export interface ListRule {
  readonly maxItems: number
  readonly uniqueItems?: boolean
}

export interface IntegerRule {
  readonly minimum: number
  readonly maximum: number
}

/** A person's or a place's name. */
export const NAME = { minLength: 1, maxLength: 200 } as const satisfies TextRule
/** Text people write at length (a description, a note). */
export const FREE_TEXT = { maxLength: 5000 } as const satisfies TextRule
/** Deliberately simple: one @, no spaces, a dot in the domain. Deliverability is the mail server's call. */
export const EMAIL = { pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', maxLength: 254 } as const satisfies TextRule
/** E.164: a plus, a country code, at most 15 digits in all. */
export const PHONE = { pattern: '^\\+[1-9][0-9]{1,14}$', maxLength: 16 } as const satisfies TextRule
export const HTTP_URL = { pattern: '^https?://\\S+$', maxLength: 2000 } as const satisfies TextRule

export const EMAIL_MEANING = 'an email address'
export const PHONE_MEANING = 'a phone number in international form, like +15035550101'

const compiled = new Map<string, RegExp>()
export function matches(value: string, pattern: string): boolean {
  let regex = compiled.get(pattern)
  if (!regex) {
    regex = new RegExp(pattern)
    compiled.set(pattern, regex)
  }
  return regex.test(value)
}

/** What is wrong with `value` under `rule`, or undefined; `meaning` says what the pattern accepts. */
export function textProblem(value: unknown, rule: TextRule, meaning?: string): string | undefined {
  if (typeof value !== 'string') return 'must be a string'
  if (!value.isWellFormed()) return ILL_FORMED_TEXT
  if (rule.minLength === 1 && value.length === 0) return 'must not be empty'
  if (rule.minLength !== undefined && value.length < rule.minLength) return `must be at least ${rule.minLength} characters`
  if (value.length > rule.maxLength) return `must be at most ${rule.maxLength} characters`
  if (rule.pattern && !matches(value, rule.pattern)) return `must be ${meaning ?? `text matching ${rule.pattern}`}`
  return undefined
}

/** Whether a field must be there, may be left out, or may also be `null` (which clears it). */
export type Presence = 'required' | 'optional' | 'clearable'

/** The problems of one input, collected field by field, in `errors`. */
export class FieldChecks {
  readonly errors: FieldError[] = []

  /** `trim`: the value is stored trimmed, so it is checked trimmed (spaces alone are empty). */
  text(path: string, value: unknown, rule: TextRule, options: { presence?: Presence; meaning?: string; trim?: boolean } = {}): this {
    return this.check(path, value, options.presence, (v) =>
      textProblem(options.trim && typeof v === 'string' ? v.trim() : v, rule, options.meaning),
    )
  }

  integer(path: string, value: unknown, rule: IntegerRule, presence?: Presence): this {
    return this.check(path, value, presence, (v) =>
      Number.isInteger(v) && (v as number) >= rule.minimum && (v as number) <= rule.maximum
        ? undefined
        : `must be a whole number from ${rule.minimum} to ${rule.maximum}`,
    )
  }

  boolean(path: string, value: unknown, presence?: Presence): this {
    return this.check(path, value, presence, (v) => (typeof v === 'boolean' ? undefined : 'must be true or false'))
  }

  oneOf(path: string, value: unknown, values: readonly string[], presence?: Presence): this {
    return this.check(path, value, presence, (v) => (values.includes(v as string) ? undefined : `must be one of: ${values.join(', ')}`))
  }

  /** A list of at most `maxItems` (without repeats when `uniqueItems`), each item passing `item`. */
  list(path: string, value: unknown, rule: ListRule, item: (v: unknown) => string | undefined, presence?: Presence): this {
    return this.check(path, value, presence, (v) => {
      if (!Array.isArray(v)) return 'must be a list'
      if (v.length > rule.maxItems) return `must have at most ${rule.maxItems} items`
      if (rule.uniqueItems && new Set(v).size !== v.length) return 'must not repeat an item'
      const problem = v.map(item).find((p) => p !== undefined)
      return problem && `has an item that ${problem}`
    })
  }

  /** A rule of its own: `problem` answers what is wrong with a given value, or undefined. */
  check(path: string, value: unknown, presence: Presence = 'required', problem: (value: unknown) => string | undefined): this {
    if (value === undefined && presence !== 'required') return this
    if (value === null && presence === 'clearable') return this
    const message = value === undefined ? 'is required' : value === null ? 'must not be null' : problem(value)
    if (message) this.errors.push({ path, message })
    return this
  }
}
