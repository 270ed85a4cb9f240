import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { UNIQUE_CONFLICTS } from '../../../src/application/ports/repositories'
import type { IdempotencyKeyRecord } from '../../../src/application/ports/repositories/idempotency-key-repository'
import { ConflictError } from '../../../src/domain/errors'
import { aNeed, anOrganization, aPartner } from '../../support/builders'
import { postgresAvailable } from '../../support/postgres'
import { minute, rejectionOf } from './contract-support'
import { db, gate, openTwoInstances, other, read, within, write } from './postgres-support'

// docs/api/conventions.md "Retrying a create" on PostgreSQL: a retry whose create is still open on another
// instance waits for it on the key's primary key, then fails on it, keeping nothing of its own.

if (postgresAvailable())
  describe('PostgreSQL database', () => {
    openTwoInstances()

    test('a claim of a key another transaction holds waits for its commit, then fails with the 409; its need is not kept', async () => {
      const organization = anOrganization()
      const partner = aPartner({ organizationId: organization.id, isDefault: true })
      await write(async (r) => {
        await r.organizations.insert(organization)
        await r.partners.insert(partner)
      })
      const key: IdempotencyKeyRecord = {
        organizationId: organization.id,
        caller: randomUUID(),
        operation: 'create_need',
        keyHash: randomUUID(),
        requestHash: 'first',
        recordId: randomUUID(),
        createdAt: minute(0),
      }
      const expiredBy = minute(-24 * 60)
      const [claimed, release] = [gate(), gate()]
      const first = db.persistence.unitOfWork.run(async (r) => {
        await r.idempotencyKeys.claim(key, expiredBy)
        await r.organizations.findById(organization.id)
        claimed.open()
        await release.opened
      })
      await claimed.opened

      const need = aNeed({ organizationId: organization.id, partnerId: partner.id })
      const retry = other.unitOfWork.run(async (r) => {
        await r.idempotencyKeys.claim({ ...key, requestHash: 'retry', recordId: need.id }, expiredBy)
        await r.needs.insert(need)
      })
      expect(await within(retry, 300)).toBe('waiting')
      release.open()
      await first

      const error = await rejectionOf(retry)
      expect(error).toBeInstanceOf(ConflictError)
      expect((error as ConflictError).message).toBe(UNIQUE_CONFLICTS.idempotencyKey)
      expect(await read().idempotencyKeys.find(key, expiredBy)).toEqual(key)
      expect(await read().needs.findById(organization.id, need.id)).toBeUndefined()
    })
  })
