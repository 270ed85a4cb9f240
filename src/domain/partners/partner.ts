import { ConflictError, type FieldError } from '../errors'
import { FieldChecks, FREE_TEXT, HTTP_URL, NAME, textProblem, type ListRule, type TextRule } from '../shared/fields'

// docs/api/needs.md "Partners"
export interface Partner {
  id: string
  organizationId: string
  name: string
  slaHours: number
  isArchived: boolean
  isDefault: boolean
  description?: string
  keywords?: string[]
  website?: string
  publicCategoryName?: string
  createdAt: Date
}

export const SLA_HOURS = { minimum: 1, maximum: 8760 } as const
/** Words that route public intake to the partner. */
export const KEYWORDS = { maxItems: 50 } as const satisfies ListRule
export const KEYWORD = { minLength: 1, maxLength: 100 } as const satisfies TextRule

/** What a partner's creator or editor sets. */
export type PartnerFields = Pick<
  Partner,
  'name' | 'slaHours' | 'isArchived' | 'isDefault' | 'description' | 'keywords' | 'website' | 'publicCategoryName'
>

/** The problems of a new partner (`name` and `slaHours` required) or of a change to one (every field optional). */
export function partnerFieldErrors(input: Partial<PartnerFields>, change: 'create' | 'update'): FieldError[] {
  const named = change === 'create' ? 'required' : 'optional'
  return new FieldChecks()
    .text('/name', input.name, NAME, { presence: named })
    .integer('/slaHours', input.slaHours, SLA_HOURS, named)
    .text('/description', input.description, FREE_TEXT, { presence: 'optional' })
    .list('/keywords', input.keywords, KEYWORDS, (k) => textProblem(k, KEYWORD), 'optional')
    .text('/website', input.website, HTTP_URL, { presence: 'optional', meaning: 'an http(s) URL' })
    .text('/publicCategoryName', input.publicCategoryName, NAME, { presence: 'optional' })
    .boolean('/isDefault', input.isDefault, 'optional')
    .boolean('/isArchived', input.isArchived, 'optional').errors
}

/** Rules every saved partner keeps: the default partner is never archived. */
export function assertPartnerConsistent(partner: Partner): void {
  if (partner.isDefault && partner.isArchived) {
    throw new ConflictError('The default partner cannot be archived; make another partner the default first')
  }
}
