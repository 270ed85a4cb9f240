import { and, eq, gt, lte, sql, type Placeholder } from 'drizzle-orm'
import type {
  IdempotencyKeyRecord,
  IdempotencyKeyRepository,
  IdempotencyScope,
} from '../../../application/ports/repositories/idempotency-key-repository'
import { SqlRepository } from './sql-repository'

type ScopeValues = Record<keyof IdempotencyScope, string | Placeholder>

/** A prepared statement's placeholders for a scope, named as its fields. */
const SCOPE_PLACEHOLDERS = Object.fromEntries(
  (['organizationId', 'caller', 'operation', 'keyHash'] as const).map((name) => [name, sql.placeholder(name)]),
) as ScopeValues

export class SqlIdempotencyKeyRepository extends SqlRepository implements IdempotencyKeyRepository {
  async claim(key: IdempotencyKeyRecord, expiredBy: Date) {
    const t = this.tables.idempotencyKeys
    const { organizationId, caller, operation, keyHash } = key
    // A key past its day is new again: its row goes first, in the same transaction. Both statements are sent on
    // with what follows; a key still kept fails the unit with its 409 before anything the create writes after it.
    const expired = () => this.db.delete(t).where(and(this.inScope(SCOPE_PLACEHOLDERS), lte(t.createdAt, sql.placeholder('expiredBy'))))
    const scope = { organizationId, caller, operation, keyHash, expiredBy: t.createdAt.mapToDriverValue(expiredBy) }
    await this.unread(this.prepared('idempotency_key_expired_delete', expired, scope))
    await this.unread(this.conflictOnUnique(this.preparedInsert('idempotency_key_insert', t, { ...key })))
  }
  async find(scope: IdempotencyScope, expiredBy: Date) {
    const t = this.tables.idempotencyKeys
    const [row] = await this.db
      .select()
      .from(t)
      .where(and(this.inScope(scope), gt(t.createdAt, expiredBy)))
    return row as IdempotencyKeyRecord | undefined
  }
  async purge(expiredBy: Date, limit: number) {
    const t = this.tables.idempotencyKeys
    const expired = this.db
      .select({ organizationId: t.organizationId, caller: t.caller, operation: t.operation, keyHash: t.keyHash })
      .from(t)
      .where(lte(t.createdAt, expiredBy))
      .limit(limit)
    const deleted = await this.db
      .delete(t)
      .where(sql`(${t.organizationId}, ${t.caller}, ${t.operation}, ${t.keyHash}) in (${expired})`)
      .returning({ keyHash: t.keyHash })
    return deleted.length
  }
  /** The row of a scope: its values, or a prepared statement's placeholders. */
  private inScope(scope: ScopeValues) {
    const t = this.tables.idempotencyKeys
    return and(
      eq(t.organizationId, scope.organizationId),
      eq(t.caller, scope.caller),
      eq(t.operation, scope.operation),
      eq(t.keyHash, scope.keyHash),
    )
  }
}
