import type { CustomFields } from '../needs/need'
import type { Constituent } from './constituent'
import { CONTACT_FIELDS } from './contact'

// docs/privacy.md: what erasing a person leaves behind.

/** What an erased person's record keeps: its ids, household and times, and when it was erased; no detail. */
export function erasedConstituent(c: Constituent, now: Date): Constituent {
  return {
    id: c.id,
    organizationId: c.organizationId,
    householdId: c.householdId,
    createdAt: c.createdAt,
    updatedAt: now,
    erasedAt: c.erasedAt ?? now,
  }
}

/** A need's `customFields` without the contact keys an intake gave (the person's details); undefined when it has none. */
export function withoutContactKeys(customFields: CustomFields): CustomFields | undefined {
  const kept = Object.fromEntries(Object.entries(customFields).filter(([key]) => !(CONTACT_FIELDS as readonly string[]).includes(key)))
  return Object.keys(kept).length === Object.keys(customFields).length ? undefined : kept
}
