import { UNIQUE_CONFLICTS } from '../../../application/ports/repositories'
import type {
  IdempotencyKeyRecord,
  IdempotencyKeyRepository,
  IdempotencyScope,
} from '../../../application/ports/repositories/idempotency-key-repository'
import { ConflictError } from '../../../domain/errors'
import { copy } from './memory-store'
import { MemoryRepository } from './memory-repository'

/** The table's key: one row per scope, as the SQL primary key. */
const scopeOf = ({ organizationId, caller, operation, keyHash }: IdempotencyScope) => `${organizationId}|${caller}|${operation}|${keyHash}`

export class MemoryIdempotencyKeyRepository extends MemoryRepository implements IdempotencyKeyRepository {
  async claim(key: IdempotencyKeyRecord, expiredBy: Date) {
    if (await this.find(key, expiredBy)) throw new ConflictError(UNIQUE_CONFLICTS.idempotencyKey)
    this.t.idempotencyKeys.set(scopeOf(key), copy(key))
  }
  async find(scope: IdempotencyScope, expiredBy: Date) {
    const key = this.t.idempotencyKeys.get(scopeOf(scope))
    return key && key.createdAt > expiredBy ? copy(key) : undefined
  }
  async purge(expiredBy: Date, limit: number) {
    const expired = [...this.t.idempotencyKeys].filter(([, key]) => key.createdAt <= expiredBy).slice(0, limit)
    for (const [scope] of expired) this.t.idempotencyKeys.delete(scope)
    return expired.length
  }
}
