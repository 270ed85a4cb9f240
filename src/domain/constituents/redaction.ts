import type { Actor } from '../auth/actor'
import { isAllowed } from '../auth/permissions'
import { CONTACT, CONTACT_FIELDS, type ContactField, type FieldReaders } from './contact'

const readBy = (...readers: FieldReaders[]) => CONTACT_FIELDS.filter((field) => readers.includes(CONTACT[field].readers))
const PERSONAL_ONLY: readonly ContactField[] = readBy('personal')
/** The personal details some roles may not read: what a read of a constituent is audited for (docs/audit.md). */
export const PERSONAL_DETAILS: readonly ContactField[] = readBy('contact', 'personal')

/**
 * The constituent fields an actor may not read (docs/api/access.md "Permissions"), by each field's readers (contact.ts):
 * phone, email, address and date of birth need `constituents:read-pii`; phone and email alone are also open
 * to `constituents:read-contact`. Names are never hidden: staff must know whom they serve.
 */
export function hiddenContactFields(actor: Actor): readonly ContactField[] {
  if (isAllowed(actor, 'constituents:read-pii')) return []
  if (isAllowed(actor, 'constituents:read-contact')) return PERSONAL_ONLY
  return PERSONAL_DETAILS
}

/** Whether the actor may read this contact field of a person, wherever it appears. */
export function mayReadContact(actor: Actor, field: ContactField): boolean {
  return !hiddenContactFields(actor).includes(field)
}

/** A copy of `record` without the keys the actor may not read. */
export function withoutHiddenContact<T extends object>(actor: Actor, record: T): T {
  const hidden = hiddenContactFields(actor)
  if (hidden.length === 0) return record
  return Object.fromEntries(Object.entries(record).filter(([key]) => !hidden.includes(key as ContactField))) as T
}
