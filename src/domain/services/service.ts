import type { FieldError } from '../errors'
import { EMAIL, EMAIL_MEANING, FieldChecks, FREE_TEXT, HTTP_URL, NAME, type ListRule, type Presence, type TextRule } from '../shared/fields'
import { countryCodeProblem, normalizePhone, phoneProblem } from '../shared/phone'
import { inWeekOrder, openingHoursProblem, SCHEDULE, type OpeningHours } from './schedule'
import { TERM_CODE, VOCABULARY, type TaxonomyTerm, type TermReference } from './taxonomy'

// docs/api/services.md: what a partner offers, the records an HSDS 3.0 directory publishes.

/** HSDS 3.0's service statuses, as it writes them. */
export const SERVICE_STATUSES = ['active', 'inactive', 'defunct', 'temporarily closed'] as const
export type ServiceStatus = (typeof SERVICE_STATUSES)[number]

/** Where a service is given: the five fields of an HSDS address, all required. */
export interface ServiceAddress {
  address1: string
  city: string
  stateProvince: string
  postalCode: string
  /** ISO 3166-1 alpha-2. */
  country: string
}

/** A service as kept: its terms by reference, so a vocabulary imported again names them anew. */
export interface Service {
  id: string
  organizationId: string
  partnerId: string
  name: string
  description?: string
  status: ServiceStatus
  eligibility?: string
  /** BCP 47 tags, canonical (`es-MX`). */
  languages: string[]
  schedule: OpeningHours[]
  fees?: string
  applicationProcess?: string
  url?: string
  email?: string
  /** E.164. */
  phone?: string
  address?: ServiceAddress
  /** Whether the service takes referrals now: its capacity, an extension of HSDS. */
  acceptingReferrals: boolean
  taxonomyTerms: TermReference[]
  isArchived: boolean
  createdAt: Date
  updatedAt: Date
}

/** A service as read: each term with its name and description as its vocabulary gives them now. */
export type ServiceDetail = Omit<Service, 'taxonomyTerms'> & { taxonomyTerms: TaxonomyTerm[] }

export const LANGUAGES = { maxItems: 50, uniqueItems: true } as const satisfies ListRule
export const LANGUAGE_TAG = { minLength: 2, maxLength: 35 } as const satisfies TextRule
export const LANGUAGE_TAG_MEANING = 'a BCP 47 language tag, e.g. en, es-MX'
export const TAXONOMY_TERMS = { maxItems: 50 } as const satisfies ListRule
export const ADDRESS_LINE = { minLength: 1, maxLength: 200 } as const satisfies TextRule
export const POSTAL_CODE = { minLength: 1, maxLength: 20 } as const satisfies TextRule

/** The optional texts, cleared by `null` on an update. */
const CLEARABLE_TEXTS = ['description', 'eligibility', 'fees', 'applicationProcess'] as const

/** What a service's creator or editor sets; `null` clears an optional field. */
export type ServiceFields = Pick<
  Service,
  'partnerId' | 'name' | 'status' | 'languages' | 'schedule' | 'acceptingReferrals' | 'taxonomyTerms'
> & {
  [K in (typeof CLEARABLE_TEXTS)[number] | 'url' | 'email' | 'phone' | 'address']?: Service[K] | null
} & { isArchived?: boolean }

/**
 * The problems of a new service (`partnerId` and `name` required) or of a change to one (every field optional). A phone is
 * read in `country`, the organization's (docs/api/needs.md "Phone numbers").
 */
export function serviceFieldErrors(
  input: Partial<Record<keyof ServiceFields, unknown>>,
  change: 'create' | 'update',
  country: string,
): FieldError[] {
  const named: Presence = change === 'create' ? 'required' : 'optional'
  const checks = new FieldChecks()
    .text('/partnerId', input.partnerId, { maxLength: 36 }, { presence: named })
    .text('/name', input.name, NAME, { presence: named, trim: true })
    .oneOf('/status', input.status, SERVICE_STATUSES, 'optional')
    .list('/languages', input.languages, LANGUAGES, languageProblem, 'optional')
    .list('/schedule', input.schedule, SCHEDULE, openingHoursProblem, 'optional')
    .text('/url', input.url, HTTP_URL, { presence: 'clearable', meaning: 'an http(s) URL' })
    .text('/email', input.email, EMAIL, { presence: 'clearable', meaning: EMAIL_MEANING })
    .check('/phone', input.phone, 'clearable', (phone) => phoneProblem(phone, country))
    .boolean('/acceptingReferrals', input.acceptingReferrals, 'optional')
    .list('/taxonomyTerms', input.taxonomyTerms, TAXONOMY_TERMS, termReferenceProblem, 'optional')
    .boolean('/isArchived', input.isArchived, 'optional')
  for (const field of CLEARABLE_TEXTS) checks.text(`/${field}`, input[field], FREE_TEXT, { presence: 'clearable' })
  addressChecks(checks, input.address)
  return checks.errors
}

/**
 * A checked input as it is kept: texts trimmed, languages canonical and once each, the phone in E.164, each entry's days in
 * the week's order. `null` stays, for the update to clear the field.
 */
export function keptServiceFields<T extends Partial<ServiceFields>>(input: T, country: string): T {
  const kept: Partial<ServiceFields> = { ...input }
  if (input.name !== undefined) kept.name = input.name.trim()
  if (input.languages) kept.languages = [...new Set(input.languages.map((tag) => canonicalLanguage(tag) as string))]
  if (input.schedule) kept.schedule = input.schedule.map(inWeekOrder)
  if (input.phone) kept.phone = normalizePhone(input.phone.trim(), country)
  if (input.address) kept.address = { ...trimmed(input.address), country: input.address.country }
  return kept as T
}

function trimmed(address: ServiceAddress): ServiceAddress {
  return Object.fromEntries(Object.entries(address).map(([key, value]) => [key, value.trim()])) as unknown as ServiceAddress
}

function addressChecks(checks: FieldChecks, address: unknown): void {
  checks.check('/address', address, 'clearable', (a) => (typeof a === 'object' && !Array.isArray(a) ? undefined : 'must be an object'))
  if (typeof address !== 'object' || address === null) return
  const a = address as Partial<Record<keyof ServiceAddress, unknown>>
  checks
    .text('/address/address1', a.address1, ADDRESS_LINE, { trim: true })
    .text('/address/city', a.city, ADDRESS_LINE, { trim: true })
    .text('/address/stateProvince', a.stateProvince, ADDRESS_LINE, { trim: true })
    .text('/address/postalCode', a.postalCode, POSTAL_CODE, { trim: true })
    .check('/address/country', a.country, 'required', countryCodeProblem)
}

/** A BCP 47 tag in its canonical case (`es-mx` is `es-MX`), or undefined when it is none. */
export function canonicalLanguage(value: string): string | undefined {
  if (value.length < LANGUAGE_TAG.minLength || value.length > LANGUAGE_TAG.maxLength) return undefined
  try {
    return Intl.getCanonicalLocales(value)[0]
  } catch {
    return undefined
  }
}

function languageProblem(value: unknown): string | undefined {
  return typeof value === 'string' && canonicalLanguage(value) ? undefined : `is not ${LANGUAGE_TAG_MEANING}`
}

function termReferenceProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'is not an object of vocabulary and code'
  const { vocabulary, code } = value as Record<string, unknown>
  const fits = (v: unknown, rule: TextRule) => typeof v === 'string' && v.length >= 1 && v.length <= rule.maxLength
  return fits(vocabulary, VOCABULARY) && fits(code, TERM_CODE) ? undefined : 'is not an object of vocabulary and code'
}
