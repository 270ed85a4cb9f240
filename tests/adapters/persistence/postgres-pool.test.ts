import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import postgres from 'postgres'
import { PostgresDatabase } from '../../../src/adapters/persistence/postgres/postgres-database'
import { FIRST_REFERENCE_NUMBER } from '../../../src/domain/needs/need'
import { aMember, aNewNeed, anOrganization, aPartner } from '../../support/builders'
import { postgresAvailable } from '../../support/postgres'
import { db, openTwoInstances, realTimer } from './postgres-support'

// PostgreSQL's pool of connections: a failed transaction gives its connection back, and connections the
// server closed while idle are replaced without failing a request.

if (postgresAvailable())
  describe('PostgreSQL database', () => {
    openTwoInstances()

    test('stays usable after failed transactions with a pool of one connection: each gives it back', async () => {
      const small = new PostgresDatabase(db.url, { maxConnections: 1 })
      try {
        const organization = anOrganization()
        for (let i = 0; i < 10; i++) {
          const failure = new Error(`failure ${i}`)
          await expect(
            small.unitOfWork.run(async (r) => {
              await r.organizations.insert(organization)
              throw failure
            }),
          ).rejects.toBe(failure)
          // A statement the database refuses aborts the transaction: it is rolled back, and the connection freed.
          await expect(small.unitOfWork.run((r) => r.members.insert(aMember({ organizationId: randomUUID() })))).rejects.toThrow()
        }
        await small.unitOfWork.run((r) => r.organizations.insert(organization))
        expect(await small.repositories.organizations.findById(organization.id)).toEqual(organization)
      } finally {
        await small.close()
      }
    })

    test('connections the database closed while idle (a restart) cost no request: reads and transactions run on fresh ones', async () => {
      const pool = new PostgresDatabase(db.url, { maxConnections: 4 })
      const admin = postgres(db.url, { max: 1, onnotice: () => {} })
      try {
        const organization = anOrganization()
        const partner = aPartner({ organizationId: organization.id })
        await pool.unitOfWork.run(async (r) => {
          await r.organizations.insert(organization)
          await r.partners.insert(partner)
        })
        // Open every connection of the pool, then have the server end them all, as a restart does.
        await Promise.all(Array.from({ length: 8 }, () => pool.repositories.organizations.findById(organization.id)))
        await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`
        // The client hears of each closed connection as its socket closes: on a busy machine 50 ms was not always enough
        // (a read then met a second dead connection). A restart itself takes longer than this.
        await realTimer(500)
        for (let i = 0; i < 8; i++) expect(await pool.repositories.organizations.findById(organization.id)).toEqual(organization)
        await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`
        await realTimer(500)
        const create = () =>
          pool.unitOfWork.run((r) => r.needs.insertMany([aNewNeed({ organizationId: organization.id, partnerId: partner.id })]))
        for (let i = 0; i < 8; i++) await create()
        expect(await (await create()).referenceNumbers).toEqual([`REQ-${FIRST_REFERENCE_NUMBER + 8}`])
      } finally {
        await admin.end()
        await pool.close()
      }
    })
  })
