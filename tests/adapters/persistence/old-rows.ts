import type { Constituent, Household } from '../../../src/domain/constituents/constituent'
import type { Need } from '../../../src/domain/needs/need'
import type { Organization } from '../../../src/domain/organizations/organization'
import type { Partner } from '../../../src/domain/partners/partner'

// Rows as older versions wrote them, in their SQL (docs/architecture.md "Migrations"): what a migration test
// seeds before it migrates on. Never today's repositories, which write every column of today's schema: a column
// added later would break every test that goes back before it. Each statement names only columns the tables had
// from the first migration on (and those of later migrations where said below), with the values the versions of
// that time wrote, so a test that goes back to any of them writes what an upgrade really meets.

/** One statement with positional parameters ($1, $2…) and its values: SQLite's forms are made when it runs. */
export type OldRow = readonly [statement: string, values: unknown[]]

const parametersFor = (values: unknown[]) => values.map((_, i) => `$${i + 1}`).join(', ')

export const oldOrganization = (o: Organization): OldRow => [
  'INSERT INTO organizations (id, name, slug, max_concurrency, need_sequence, created_at) VALUES ($1, $2, $3, $4, 0, $5)',
  [o.id, o.name, o.slug, o.maxConcurrency, o.createdAt],
]

export const oldPartner = (p: Partner): OldRow => [
  `INSERT INTO partners (id, organization_id, name, sla_hours, is_archived, is_default, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7)`,
  [p.id, p.organizationId, p.name, p.slaHours, p.isArchived, p.isDefault, p.createdAt],
]

export const oldHousehold = (h: Household): OldRow => [
  'INSERT INTO households (id, organization_id, created_at) VALUES ($1, $2, $3)',
  [h.id, h.organizationId, h.createdAt],
]

/**
 * A constituent with the terms its version indexed, and from `erasure_and_retention` on its phone terms (a
 * column of that migration). Its email key is the lower-cased address every version before
 * `email_keys_are_mailboxes` wrote.
 */
export function oldConstituent(c: Constituent, terms: { search: string; phone?: string }): OldRow {
  const later = terms.phone === undefined ? '' : ', phone_terms'
  const { firstName, lastName, phone, email } = c
  const contact = [firstName, lastName, phone, email, email?.toLowerCase()].map((value) => value ?? null)
  const values = [c.id, c.organizationId, c.householdId, ...contact, c.createdAt, c.updatedAt, terms.search]
  if (terms.phone !== undefined) values.push(terms.phone)
  return [
    `INSERT INTO constituents (id, organization_id, household_id, first_name, last_name, phone, email, email_key, created_at,
      updated_at, search_terms${later}) VALUES (${parametersFor(values)})`,
    values,
  ]
}

/** A need; one with `resolvedAt` is of `due_dates_and_reports` on, which stores it. */
export function oldNeed(n: Need): OldRow {
  const { id, organizationId, partnerId, status, customFields, isConfidential, createdAt, updatedAt, referenceNumber } = n
  const values: unknown[] = [id, organizationId, partnerId, status, JSON.stringify(customFields), isConfidential, createdAt, updatedAt]
  values.push(referenceNumber, n.dueDate ?? null)
  if (n.resolvedAt) values.push(n.resolvedAt)
  return [
    `INSERT INTO needs (id, organization_id, partner_id, status, custom_fields, is_confidential, created_at, updated_at,
      reference_number, due_date${n.resolvedAt ? ', resolved_at' : ''}) VALUES (${parametersFor(values)})`,
    values,
  ]
}

/** A change of a need's status, as its history stored it. */
export const oldStatusChange = (n: Pick<Need, 'id' | 'organizationId'>, to: string, changedAt: Date): OldRow => [
  'INSERT INTO need_changes (id, organization_id, need_id, field, to_value, changed_at) VALUES ($1, $2, $3, $4, $5, $6)',
  [crypto.randomUUID(), n.organizationId, n.id, 'status', to, changedAt],
]

/** Name terms as versions from `search_terms_per_organization` on wrote them: each word behind `o<hex>t`. */
export const markedTerms = (organizationId: string, words: string[]) =>
  words.map((word) => `o${organizationId.replace(/-/g, '')}t${word}`).join(' ')

/** A phone's digits as name-like terms, as versions before `erasure_and_retention` indexed them: a +1 number's 10 after it too. */
export function oldPhoneTerms(phone: string | undefined): string[] {
  const digits = phone?.replace(/\D/g, '') ?? ''
  if (digits === '') return []
  return digits.length === 11 && digits.startsWith('1') ? [digits, digits.slice(1)] : [digits]
}
