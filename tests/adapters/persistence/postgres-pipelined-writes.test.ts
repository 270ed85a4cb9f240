import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { PostgresDatabase } from '../../../src/adapters/persistence/postgres/postgres-database'
import { postgresDialect } from '../../../src/adapters/persistence/postgres/postgres-dialect'
import { driverError } from '../../../src/adapters/persistence/sql/sql-dialect'
import type { Repositories } from '../../../src/application/ports/repositories'
import type { UnnumberedNeed } from '../../../src/application/ports/repositories/need-repository'
import type { Need } from '../../../src/domain/needs/need'
import { aMember, aNeed, aNewNeed, anOrganization, aPartner } from '../../support/builders'
import { postgresAvailable } from '../../support/postgres'
import { makePostgres, type PostgresFixture } from './postgres-fixture'

// A PostgreSQL transaction sends a write whose result nobody reads (a new need, its history entry, an audit
// event, an outbox message) on with the statements after it, and COMMIT with the last of them
// (sent-writes.ts). When the database refuses such a write, the unit fails all the same, with
// that refusal, and keeps nothing.

if (postgresAvailable())
  describe('PostgreSQL: writes nobody reads, sent on with what follows', () => {
    let db: PostgresFixture
    beforeAll(async () => {
      db = await makePostgres()
    })
    afterAll(async () => {
      await db?.cleanup()
    })

    const write = <T>(work: (r: Repositories) => Promise<T>) => db.persistence.unitOfWork.run(work)
    const read = () => db.persistence.repositories

    /** An organization with a partner and one need, committed. */
    async function aNeedOnFile() {
      const organization = anOrganization()
      const partner = aPartner({ organizationId: organization.id })
      const need = aNeed({ organizationId: organization.id, partnerId: partner.id })
      await write(async (r) => {
        await r.organizations.insert(organization)
        await r.partners.insert(partner)
        await r.needs.insert(need)
      })
      return { organization, partner, need }
    }

    /** A new need (numbered by the store, sent on as a creation's) under the id of one on file. */
    function again({ referenceNumber: _number, ...need }: Need): UnnumberedNeed {
      return need
    }

    /** The refusal of a need inserted again under the id of one on file: its primary key. */
    function expectRefusedNeed(error: unknown) {
      expect(driverError(error)?.code).toBe('23505')
      expect(postgresDialect.uniqueViolation(error)).toBe('needs_pkey')
    }

    test('refused, with a read after it: the unit fails with the refusal, not the aborted read, and keeps nothing', async () => {
      const { organization, partner, need } = await aNeedOnFile()
      const other = anOrganization()
      const failure = await write(async (r) => {
        await r.organizations.insert(other)
        await r.needs.insertMany([again(need)])
        return r.partners.findById(organization.id, partner.id)
      }).catch((error: unknown) => error)

      expectRefusedNeed(failure)
      expect(await read().organizations.findById(other.id)).toBeUndefined()
      expect(await read().needs.findById(organization.id, need.id)).toEqual(need)
    })

    test('refused, as the last statement: the failure shows at COMMIT, which rolls the unit back', async () => {
      const { need } = await aNeedOnFile()
      const other = anOrganization()
      const failure = await write(async (r) => {
        await r.organizations.insert(other)
        await r.needs.insertMany([again(need)])
        return 'answered'
      }).catch((error: unknown) => error)

      expectRefusedNeed(failure)
      expect(await read().organizations.findById(other.id)).toBeUndefined()
    })

    test('refused, and the work goes on after the aborted read: the unit still fails with the refusal', async () => {
      const { organization, partner, need } = await aNeedOnFile()
      const failure = await write(async (r) => {
        await r.needs.insertMany([again(need)])
        await r.partners.findById(organization.id, partner.id).catch(() => undefined)
        await r.partners.update({ ...partner, name: 'Never saved' }).catch(() => undefined)
        return 'answered'
      }).catch((error: unknown) => error)

      expectRefusedNeed(failure)
      expect(await read().partners.findById(organization.id, partner.id)).toEqual(partner)
    })

    test('a refused statement the work awaited and swallowed: COMMIT rolled back, so the unit fails and keeps nothing', async () => {
      const other = anOrganization()
      const outcome = write(async (r) => {
        await r.organizations.insert(other)
        await r.members.insert(aMember({ organizationId: randomUUID() })).catch(() => undefined)
        return 'answered'
      })

      await expect(outcome).rejects.toThrow()
      expect(await read().organizations.findById(other.id)).toBeUndefined()
    })

    test('after each refusal the pool goes on: a unit on a pool of one commits', async () => {
      const { organization, need } = await aNeedOnFile()
      const small = new PostgresDatabase(db.url, { maxConnections: 1 })
      try {
        for (let i = 0; i < 3; i++) {
          await expect(small.unitOfWork.run((r) => r.needs.insertMany([again(need)]))).rejects.toThrow()
        }
        const next = aNewNeed({ organizationId: organization.id, partnerId: need.partnerId })
        const { referenceNumbers } = await small.unitOfWork.run((r) => r.needs.insertMany([next]))
        expect(await small.repositories.needs.findById(organization.id, next.id)).toEqual({
          ...next,
          referenceNumber: (await referenceNumbers)[0]!,
        })
      } finally {
        await small.close()
      }
    })
  })
