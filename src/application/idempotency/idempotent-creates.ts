import type { Actor } from '../../domain/auth/actor'
import { ConflictError, IdempotencyKeyReusedError, InvalidError } from '../../domain/errors'
import { IDEMPOTENCY_KEY_LIFETIME_MS, idempotencyKeyErrors, type IdempotentCreate } from '../../domain/shared/idempotency'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import { UNIQUE_CONFLICTS, type Repositories } from '../ports/repositories'
import type { IdempotencyKeyRecord } from '../ports/repositories/idempotency-key-repository'
import type { SecretTokens } from '../ports/secret-tokens'
import type { UnitOfWork } from '../ports/unit-of-work'

/** A create as its retries see it: who asks, which create, with which key, and what. */
export interface CreateRequest {
  organizationId: string
  /** The member, or ANONYMOUS_CALLER on public intake. */
  caller: string
  operation: IdempotentCreate
  /** The Idempotency-Key it came with, if any. */
  key: string | undefined
  /** What it asks, as parsed (the route's parameters and body): the same key with another request is refused. */
  request: unknown
}

/** A member's create. */
export function askedBy(actor: Actor, operation: IdempotentCreate, key: string | undefined, request: unknown): CreateRequest {
  return { organizationId: actor.organizationId, caller: actor.memberId, operation, key, request }
}

/** Where a create writes: the id its record takes, drawn first so that its key names it from its first write. */
export interface CreateUnit {
  readonly recordId: string
  run<T>(work: (r: Repositories) => Promise<T>): Promise<T>
}

/** Why a retry waits, when what it retries has not committed yet (SQLite: written, its transaction not ended). */
const IN_PROGRESS = 'A request with this Idempotency-Key is still being processed: retry it in a moment'

/**
 * Creates that take an Idempotency-Key (docs/api/conventions.md "Retrying a create"): the rule, once for the
 * four of them. The key is recorded in the create's own unit of work, as its first write, so the record and its
 * key commit together or not at all, and a retry meets the key before anything else: it answers what the first
 * made (`replay`, the record read anew as the caller reads it), 422 when it asks something else, 409 while the
 * first has not committed. Kept 24 hours (the retention job removes them); a key past that is new again.
 */
export class IdempotentCreates {
  constructor(
    private readonly repositories: Repositories,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly secrets: SecretTokens,
  ) {}

  async once<T>(asked: CreateRequest, create: (unit: CreateUnit) => Promise<T>, replay: (recordId: string) => Promise<T>): Promise<T> {
    const recordId = this.ids.nextInTimeOrder()
    if (asked.key === undefined) return create({ recordId, run: (work) => this.unitOfWork.run(work) })
    InvalidError.throwIfAny(idempotencyKeyErrors(asked.key), 'The Idempotency-Key header is not valid')
    const key = this.recordOf(asked, asked.key, recordId)
    const expiredBy = new Date(key.createdAt.getTime() - IDEMPOTENCY_KEY_LIFETIME_MS)
    try {
      return await create({
        recordId,
        run: (work) =>
          this.unitOfWork.run(async (r) => {
            await r.idempotencyKeys.claim(key, expiredBy)
            return work(r)
          }),
      })
    } catch (error) {
      if (!(error instanceof ConflictError && error.message === UNIQUE_CONFLICTS.idempotencyKey)) throw error
    }
    const first = await this.repositories.idempotencyKeys.find(key, expiredBy)
    if (!first) throw new ConflictError(IN_PROGRESS)
    if (first.requestHash !== key.requestHash) throw new IdempotencyKeyReusedError()
    return replay(first.recordId)
  }

  private recordOf({ organizationId, caller, operation, request }: CreateRequest, key: string, recordId: string): IdempotencyKeyRecord {
    return {
      organizationId,
      caller,
      operation,
      keyHash: this.secrets.digest(key),
      // With the key: the digest of a request alone could be matched by guessing the request (a name, a number).
      requestHash: this.secrets.digest(`${key}\n${canonicalJson(request)}`),
      recordId,
      createdAt: this.clock.now(),
    }
  }
}

/** JSON with every object's keys in one order: the same request whatever order its fields were sent in. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  )
}
