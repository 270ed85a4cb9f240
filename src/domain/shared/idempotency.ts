import { FieldChecks, type TextRule } from './fields'

// docs/api/conventions.md "Retrying a create": a create sent again with the same Idempotency-Key answers what the
// first one made, never a second record.

/** 1 to 255 visible ASCII characters, as the IETF's idempotency-key draft allows; clients send a random UUID. */
export const IDEMPOTENCY_KEY = { minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' } as const satisfies TextRule
export const IDEMPOTENCY_KEY_MEANING = 'visible ASCII characters, without spaces'

/** Where a bad key is reported: its header, named as HTTP reports a header's problems, by every entry point alike. */
export const IDEMPOTENCY_KEY_PATH = 'headers/idempotency-key'

/** How long a key answers with its first outcome; past that it is new again, and the retention job removes it. */
export const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000

/** The creates that take a key: each is a key space of its own. */
export const IDEMPOTENT_CREATES = ['create_need', 'submit_public_need', 'add_note', 'send_sms'] as const
export type IdempotentCreate = (typeof IDEMPOTENT_CREATES)[number]

/** Who sends a key on public intake: the organization's anonymous callers, one key space. */
export const ANONYMOUS_CALLER = 'public'

export function idempotencyKeyErrors(key: string) {
  return new FieldChecks().text(IDEMPOTENCY_KEY_PATH, key, IDEMPOTENCY_KEY, { meaning: IDEMPOTENCY_KEY_MEANING }).errors
}
