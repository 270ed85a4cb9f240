import type { IdempotentCreate } from '../../../domain/shared/idempotency'

/** Whose key it is: a caller of one organization (a member, or its anonymous callers), for one kind of create. */
export interface IdempotencyScope {
  organizationId: string
  /** The member who sent it, or ANONYMOUS_CALLER (public intake). */
  caller: string
  operation: IdempotentCreate
  /** SHA-256 of the key (hex): the key itself is never stored. */
  keyHash: string
}

/**
 * A key as kept (docs/api/conventions.md "Retrying a create"): digests and an id, nothing of a person. What the
 * create answered is read anew from its record, never kept: it would hold details erasure could not reach.
 */
export interface IdempotencyKeyRecord extends IdempotencyScope {
  /** SHA-256 of the key and the request it first came with: a retry asking something else is told apart. */
  requestHash: string
  /** The record the create made. */
  recordId: string
  createdAt: Date
}

export interface IdempotencyKeyRepository {
  /**
   * Records a key in the transaction of the create it came with, as its first write. A key of the same scope
   * recorded after `expiredBy` makes it fail with ConflictError(UNIQUE_CONFLICTS.idempotencyKey): at once when
   * committed, and when still being written, once that transaction commits (PostgreSQL waits for it; SQLite's
   * writes queue already). One recorded at `expiredBy` or before is replaced.
   */
  claim(key: IdempotencyKeyRecord, expiredBy: Date): Promise<void>
  /** The key of this scope recorded after `expiredBy`, if any. */
  find(scope: IdempotencyScope, expiredBy: Date): Promise<IdempotencyKeyRecord | undefined>
  /** Removes up to `limit` keys, of any organization, recorded at `expiredBy` or before; answers how many went. */
  purge(expiredBy: Date, limit: number): Promise<number>
}
