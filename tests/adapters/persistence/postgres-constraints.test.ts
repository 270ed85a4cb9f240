import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import postgres from 'postgres'
import { anOrganization, aPartner } from '../../support/builders'
import { postgresAvailable } from '../../support/postgres'
import { minute } from './contract-support'
import { db, openTwoInstances, read, write } from './postgres-support'

// What the PostgreSQL schema itself refuses: changing an audit event (a trigger), and a second default
// partner in one organization (a partial unique index).

if (postgresAvailable())
  describe('PostgreSQL database', () => {
    openTwoInstances()

    test('the database itself refuses to change an audit event; the purge still deletes', async () => {
      const organization = anOrganization()
      const event = {
        id: randomUUID(),
        organizationId: organization.id,
        action: 'update',
        recordType: 'need',
        recordId: randomUUID(),
        at: minute(0),
      } as const
      await write(async (r) => {
        await r.organizations.insert(organization)
        await r.auditEvents.append([event])
      })
      const client = postgres(db.url, { max: 1, onnotice: () => {} })
      try {
        await expect(client`UPDATE audit_events SET action = 'read' WHERE id = ${event.id}`).rejects.toThrow('append-only')
      } finally {
        await client.end()
      }
      expect((await read().auditEvents.list(organization.id, {}, { page: 1, limit: 10 })).items).toEqual([event])
      expect(await write((r) => r.auditEvents.purge(organization.id, minute(1), 10))).toBe(1)
    })

    describe('default partners (a partial unique index)', () => {
      test('refuses a second default partner in one organization and rolls the whole write back', async () => {
        const organization = anOrganization()
        const first = aPartner({ organizationId: organization.id, isDefault: true })
        await write(async (r) => {
          await r.organizations.insert(organization)
          await r.partners.insert(first)
        })
        const bystander = aPartner({ organizationId: organization.id })
        const second = aPartner({ organizationId: organization.id, isDefault: true })

        const outcome = write(async (r) => {
          await r.partners.insert(bystander)
          await r.partners.insert(second)
        })

        await expect(outcome).rejects.toThrow()
        expect(await read().partners.listAll(organization.id)).toEqual([first])
      })

      test('refuses making a partner default while another still is', async () => {
        const organization = anOrganization()
        const first = aPartner({ organizationId: organization.id, isDefault: true })
        const second = aPartner({ organizationId: organization.id })
        await write(async (r) => {
          await r.organizations.insert(organization)
          await r.partners.insert(first)
          await r.partners.insert(second)
        })

        await expect(write((r) => r.partners.update({ ...second, isDefault: true }))).rejects.toThrow()
        expect(await read().partners.findById(organization.id, second.id)).toEqual(second)
      })

      test('a default partner of another organization is no conflict', async () => {
        const a = anOrganization()
        const b = anOrganization()
        const defaults = [aPartner({ organizationId: a.id, isDefault: true }), aPartner({ organizationId: b.id, isDefault: true })]
        await write(async (r) => {
          await r.organizations.insert(a)
          await r.organizations.insert(b)
          for (const partner of defaults) await r.partners.insert(partner)
        })

        expect(await read().partners.listAll(a.id)).toEqual([defaults[0]!])
        expect(await read().partners.listAll(b.id)).toEqual([defaults[1]!])
      })
    })
  })
