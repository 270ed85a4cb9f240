import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { UNIQUE_CONFLICTS } from '../../../src/application/ports/repositories'
import type { IdempotencyKeyRecord } from '../../../src/application/ports/repositories/idempotency-key-repository'
import { ConflictError } from '../../../src/domain/errors'
import { aNeed } from '../../support/builders'
import type { ContractContext } from './contract-context'
import { minute, rejectionOf } from './contract-support'

/** A key of an organization's member, recorded at minute 0 unless told otherwise. */
function aKey(organizationId: string, overrides: Partial<IdempotencyKeyRecord> = {}): IdempotencyKeyRecord {
  return {
    organizationId,
    caller: randomUUID(),
    operation: 'create_need',
    keyHash: randomUUID().replaceAll('-', ''),
    requestHash: randomUUID().replaceAll('-', ''),
    recordId: randomUUID(),
    createdAt: minute(0),
    ...overrides,
  }
}

/** Long before every other key of the suite: a purge up to then removes these alone. */
const LONG_AGO = new Date('2001-01-01T00:00:00.000Z')
/** Before every key: nothing has expired by then. */
const NOTHING_EXPIRED = new Date(0)

function expectKeyTaken(error: unknown): void {
  expect(error).toBeInstanceOf(ConflictError)
  expect((error as ConflictError).message).toBe(UNIQUE_CONFLICTS.idempotencyKey)
}

/** Idempotency-Keys (docs/api/conventions.md "Retrying a create"): one per scope while kept, written with the create. */
export function describeIdempotencyKeyContract({ read, write, anOrganizationWithPartner }: ContractContext): void {
  describe('idempotency keys', () => {
    const expiredBy = minute(-24 * 60)

    test('a key claimed is found by its scope once committed; any other scope finds nothing', async () => {
      const { organization } = await anOrganizationWithPartner()
      const key = aKey(organization.id)
      await write((r) => r.idempotencyKeys.claim(key, expiredBy))

      expect(await read().idempotencyKeys.find(key, expiredBy)).toEqual(key)
      const { organization: other } = await anOrganizationWithPartner()
      for (const scope of [
        { ...key, organizationId: other.id },
        { ...key, caller: randomUUID() },
        { ...key, operation: 'add_note' as const },
        { ...key, keyHash: 'another' },
      ])
        expect(await read().idempotencyKeys.find(scope, expiredBy)).toBeUndefined()
    })

    test('the same scope again is the 409 of the port, and fails its unit: nothing written after it is kept', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const key = aKey(organization.id)
      await write((r) => r.idempotencyKeys.claim(key, expiredBy))
      const need = aNeed({ organizationId: organization.id, partnerId: partner.id })

      const error = await rejectionOf(
        write(async (r) => {
          await r.idempotencyKeys.claim({ ...key, requestHash: 'other', recordId: need.id, createdAt: minute(1) }, expiredBy)
          await r.needs.insert(need)
        }),
      )
      expectKeyTaken(error)
      expect(await read().idempotencyKeys.find(key, expiredBy)).toEqual(key)
      expect(await read().needs.findById(organization.id, need.id)).toBeUndefined()
    })

    test('the same scope in two units at once: one keeps it, the other fails on it', async () => {
      const { organization } = await anOrganizationWithPartner()
      const key = aKey(organization.id)
      const claims = [key, { ...key, recordId: randomUUID() }]
      const settled = await Promise.allSettled(claims.map((claim) => write((r) => r.idempotencyKeys.claim(claim, expiredBy))))

      expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(1)
      expectKeyTaken(settled.find((s): s is PromiseRejectedResult => s.status === 'rejected')?.reason)
      const kept = claims[settled.findIndex((s) => s.status === 'fulfilled')]
      expect(await read().idempotencyKeys.find(key, expiredBy)).toEqual(kept)
    })

    test('a claim rolled back with its unit keeps nothing', async () => {
      const { organization } = await anOrganizationWithPartner()
      const key = aKey(organization.id)
      const undone = write(async (r) => {
        await r.idempotencyKeys.claim(key, expiredBy)
        throw new Error('undo')
      })
      await expect(undone).rejects.toThrow('undo')
      expect(await read().idempotencyKeys.find(key, expiredBy)).toBeUndefined()
      await write((r) => r.idempotencyKeys.claim(key, expiredBy))
      expect(await read().idempotencyKeys.find(key, expiredBy)).toEqual(key)
    })

    test('a key recorded at `expiredBy` or before is found no more, and a claim of its scope replaces it', async () => {
      const { organization } = await anOrganizationWithPartner()
      const old = aKey(organization.id, { createdAt: minute(0) })
      await write((r) => r.idempotencyKeys.claim(old, minute(-1)))

      expect(await read().idempotencyKeys.find(old, minute(0))).toBeUndefined()
      const renewed = { ...old, requestHash: 'renewed', recordId: randomUUID(), createdAt: minute(24 * 60) }
      await write((r) => r.idempotencyKeys.claim(renewed, minute(0)))
      expect(await read().idempotencyKeys.find(old, minute(0))).toEqual(renewed)
    })

    test('purge removes keys of any organization recorded at `expiredBy` or before, up to its limit, and answers how many', async () => {
      const [{ organization: one }, { organization: two }] = [await anOrganizationWithPartner(), await anOrganizationWithPartner()]
      const at = (ms: number) => new Date(LONG_AGO.getTime() + ms)
      const expired = [aKey(one.id, { createdAt: at(0) }), aKey(two.id, { createdAt: at(1) }), aKey(one.id, { createdAt: at(2) })]
      const kept = aKey(two.id, { createdAt: at(3) })
      await write(async (r) => {
        for (const key of [...expired, kept]) await r.idempotencyKeys.claim(key, NOTHING_EXPIRED)
      })

      expect(await write((r) => r.idempotencyKeys.purge(at(2), 2))).toBe(2)
      expect(await write((r) => r.idempotencyKeys.purge(at(2), 2))).toBe(1)
      expect(await write((r) => r.idempotencyKeys.purge(at(2), 2))).toBe(0)
      for (const key of expired) expect(await read().idempotencyKeys.find(key, NOTHING_EXPIRED)).toBeUndefined()
      expect(await read().idempotencyKeys.find(kept, NOTHING_EXPIRED)).toEqual(kept)
    })
  })
}
