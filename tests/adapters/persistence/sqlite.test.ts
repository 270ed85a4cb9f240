import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, statSync } from 'node:fs'
import { aNeed, anOrganization, aPartner } from '../../support/builders'
import { describeRepositories } from './repository-contract'
import { makeSqlite, type SqliteFixture } from './sqlite-fixture'

describeRepositories('SQLite', makeSqlite)

describe('SQLite database', () => {
  let db: SqliteFixture
  beforeAll(async () => {
    db = await makeSqlite()
  })
  afterAll(async () => {
    await db?.cleanup()
  })

  test('removes its temporary file on cleanup', async () => {
    const other = await makeSqlite()
    expect(existsSync(other.path)).toBe(true)
    await other.cleanup()
    expect(existsSync(other.path)).toBe(false)
  })

  // PERFORMANCE.md: an unfinished statement keeps a read transaction open and the WAL then never resets.
  test('keeps the WAL file small over 2,000 single-need transactions', async () => {
    const organization = anOrganization()
    const partner = aPartner({ organizationId: organization.id, isDefault: true })
    await db.persistence.unitOfWork.run(async (r) => {
      await r.organizations.insert(organization)
      await r.partners.insert(partner)
    })

    for (let i = 0; i < 2_000; i++) {
      const need = await db.persistence.unitOfWork.run(async (r) => {
        const n = await r.organizations.takeNextNeedNumber(organization.id)
        const need = aNeed({ organizationId: organization.id, partnerId: partner.id, referenceNumber: `REQ-${n}`, createdAt: new Date(Date.UTC(2026, 0, 1) + i) })
        await r.needs.insert(need)
        return need
      })
      if (i % 10 === 0) {
        expect((await db.persistence.repositories.needs.findById(organization.id, need.id))?.id).toBe(need.id)
        await db.persistence.repositories.needs.list(organization.id, {}, { page: 1, limit: 25 })
      }
    }

    expect((await db.persistence.repositories.needs.list(organization.id, {}, { page: 1, limit: 1 })).total).toBe(2_000)
    const walBytes = statSync(`${db.path}-wal`).size
    expect(walBytes).toBeLessThan(8 * 1024 * 1024)
  })

  test('refuses a second default partner in one organization and rolls the whole write back', async () => {
    const organization = anOrganization()
    const first = aPartner({ organizationId: organization.id, isDefault: true })
    await db.persistence.unitOfWork.run(async (r) => {
      await r.organizations.insert(organization)
      await r.partners.insert(first)
    })
    const bystander = aPartner({ organizationId: organization.id })
    const second = aPartner({ organizationId: organization.id, isDefault: true })

    const outcome = db.persistence.unitOfWork.run(async (r) => {
      await r.partners.insert(bystander)
      await r.partners.insert(second)
    })

    await expect(outcome).rejects.toThrow()
    expect(await db.persistence.repositories.partners.listAll(organization.id)).toEqual([first])
  })

  test('refuses making a partner default while another still is', async () => {
    const organization = anOrganization()
    const first = aPartner({ organizationId: organization.id, isDefault: true })
    const other = aPartner({ organizationId: organization.id })
    await db.persistence.unitOfWork.run(async (r) => {
      await r.organizations.insert(organization)
      await r.partners.insert(first)
      await r.partners.insert(other)
    })

    await expect(db.persistence.unitOfWork.run((r) => r.partners.update({ ...other, isDefault: true }))).rejects.toThrow()
    expect(await db.persistence.repositories.partners.findById(organization.id, other.id)).toEqual(other)
  })

  test('a default partner of another organization is no conflict', async () => {
    const a = anOrganization()
    const b = anOrganization()
    const defaults = [aPartner({ organizationId: a.id, isDefault: true }), aPartner({ organizationId: b.id, isDefault: true })]
    await db.persistence.unitOfWork.run(async (r) => {
      await r.organizations.insert(a)
      await r.organizations.insert(b)
      for (const partner of defaults) await r.partners.insert(partner)
    })

    expect(await db.persistence.repositories.partners.listAll(a.id)).toEqual([defaults[0]!])
    expect(await db.persistence.repositories.partners.listAll(b.id)).toEqual([defaults[1]!])
  })
})
