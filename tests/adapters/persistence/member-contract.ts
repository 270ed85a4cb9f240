import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { ConflictError } from '../../../src/domain/errors'
import { aMember, aPartner } from '../../support/builders'
import type { ContractContext } from './contract-context'
import { ALL, ascendingIds, byId, minute, presentKeys, rejectionOf } from './contract-support'

/** Members: the record, lookups by email, and lists by partner. */
export function describeMemberContract({ read, write, anOrganizationWithPartner, aMemberOf }: ContractContext): void {
  describe('members', () => {
    test('keeps every optional field through insert and find', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const member = aMember({
        organizationId: organization.id,
        fullName: 'Ada Lovelace',
        role: 'partner_agent',
        partnerId: partner.id,
        profiles: ['needs_processor', 'pii_reader'],
        isConfirmed: false,
        phone: '+15551230001',
        passwordHash: '$argon2id$v=19$m=64,t=1,p=1$c2FsdA$aGFzaA',
        createdAt: minute(7),
      })
      await write((r) => r.members.insert(member))

      expect(await read().members.findById(organization.id, member.id)).toEqual(member)
      expect(await read().members.findByEmail(organization.id, member.email)).toEqual(member)
    })

    test('leaves absent optional fields absent, not null', async () => {
      const { organization } = await anOrganizationWithPartner()
      const member = await aMemberOf(organization.id)

      const found = await read().members.findById(organization.id, member.id)
      expect(found).toEqual(member)
      expect(presentKeys(found, ['fullName', 'partnerId', 'phone', 'passwordHash'])).toEqual([])
    })

    test('updates fields and clears optional ones', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const member = await aMemberOf(organization.id, {
        fullName: 'Old Name',
        role: 'partner_admin',
        partnerId: partner.id,
        phone: '+15551230002',
      })

      const { fullName: _fullName, partnerId: _partnerId, ...kept } = member
      await write((r) =>
        r.members.update({
          ...kept,
          role: 'staff',
          partnerId: undefined,
          profiles: ['intake_staff'],
          isConfirmed: false,
          passwordHash: 'hash',
        }),
      )

      const found = await read().members.findById(organization.id, member.id)
      expect(found).toEqual({ ...kept, role: 'staff', profiles: ['intake_staff'], isConfirmed: false, passwordHash: 'hash' })
      expect(presentKeys(found, ['fullName', 'partnerId'])).toEqual([])
    })

    test('never shows or updates a member of another organization', async () => {
      const { organization: a } = await anOrganizationWithPartner()
      const { organization: b } = await anOrganizationWithPartner()
      const member = await aMemberOf(a.id)

      await write((r) => r.members.update({ ...member, organizationId: b.id, role: 'org_admin' }))

      expect(await read().members.findById(b.id, member.id)).toBeUndefined()
      expect(await read().members.findByEmail(b.id, member.email)).toBeUndefined()
      expect(await read().members.findById(a.id, member.id)).toEqual(member)
    })

    test('finds the members with an email across organizations', async () => {
      const { organization: a } = await anOrganizationWithPartner()
      const { organization: b } = await anOrganizationWithPartner()
      const email = `${randomUUID()}@example.org`
      const inA = await aMemberOf(a.id, { email })
      const inB = await aMemberOf(b.id, { email, role: 'org_admin' })
      await aMemberOf(a.id)

      expect(byId(await read().members.findAllByEmail(email))).toEqual(byId([inA, inB]))
      expect(await read().members.findByEmail(b.id, email)).toEqual(inB)
      expect(await read().members.findAllByEmail(`${randomUUID()}@example.org`)).toEqual([])
    })
  })

  describe('member insert and lists', () => {
    test('an email already in the organization is a ConflictError, and the transaction keeps nothing', async () => {
      const { organization } = await anOrganizationWithPartner()
      const first = await aMemberOf(organization.id)
      const bystander = aMember({ organizationId: organization.id })
      const second = aMember({ organizationId: organization.id, email: first.email, role: 'org_admin' })

      const error = await rejectionOf(
        write(async (r) => {
          await r.members.insert(bystander)
          await r.members.insert(second)
        }),
      )

      expect(error).toBeInstanceOf(ConflictError)
      expect((error as ConflictError).message).toMatch(/email/i)
      expect(await read().members.findAllByEmail(first.email)).toEqual([first])
      expect(await read().members.findById(organization.id, second.id)).toBeUndefined()
      expect(await read().members.findById(organization.id, bystander.id)).toBeUndefined()
    })

    test('an update to an email another member of the organization has is a ConflictError, the member unchanged', async () => {
      const { organization } = await anOrganizationWithPartner()
      const first = await aMemberOf(organization.id)
      const second = await aMemberOf(organization.id)

      const error = await rejectionOf(write((r) => r.members.update({ ...second, email: first.email })))

      expect(error).toBeInstanceOf(ConflictError)
      expect((error as ConflictError).message).toMatch(/email/i)
      expect(await read().members.findById(organization.id, second.id)).toEqual(second)
      await write((r) => r.members.update({ ...second, email: `changed-${second.email}` }))
      expect(await read().members.findById(organization.id, second.id)).toEqual({ ...second, email: `changed-${second.email}` })
    })

    test('the same email in another organization is no conflict', async () => {
      const { organization: a } = await anOrganizationWithPartner()
      const { organization: b } = await anOrganizationWithPartner()
      const inA = await aMemberOf(a.id)

      const inB = aMember({ organizationId: b.id, email: inA.email })
      await write((r) => r.members.insert(inB))

      expect(await read().members.findByEmail(b.id, inA.email)).toEqual(inB)
      expect(await read().members.findByEmail(a.id, inA.email)).toEqual(inA)
    })

    /** An organization with two partners and members spread over them, plus a foreign member. */
    async function memberWorld() {
      const { organization, partner: p1 } = await anOrganizationWithPartner()
      const p2 = aPartner({ organizationId: organization.id })
      await write((r) => r.partners.insert(p2))
      const org = organization.id
      const [tieLow, tieHigh] = ascendingIds(2) as [string, string]
      const m1 = aMember({ organizationId: org, role: 'org_admin', createdAt: minute(1) })
      const m2 = aMember({ organizationId: org, role: 'partner_agent', partnerId: p1.id, createdAt: minute(2) })
      const m3 = aMember({ id: tieLow, organizationId: org, role: 'partner_agent', partnerId: p2.id, createdAt: minute(3) })
      const m4 = aMember({ id: tieHigh, organizationId: org, role: 'partner_admin', partnerId: p1.id, createdAt: minute(3) })
      const m5 = aMember({ organizationId: org, role: 'staff', fullName: 'Newest', createdAt: minute(4) })
      // Oldest first, so an adapter answering in insertion order fails.
      await write(async (r) => {
        for (const member of [m1, m2, m3, m4, m5]) await r.members.insert(member)
      })
      const { organization: foreignOrg, partner: foreignPartner } = await anOrganizationWithPartner()
      const foreign = await aMemberOf(foreignOrg.id, { role: 'partner_agent', partnerId: foreignPartner.id, createdAt: minute(9) })
      return { org, p1, p2, m1, m2, m3, m4, m5, foreign }
    }

    test('lists the organization’s members newest first, id as tie-break, absent fields absent', async () => {
      const w = await memberWorld()

      const listed = await read().members.list(w.org, {}, ALL)
      expect(listed).toEqual({ items: [w.m5, w.m4, w.m3, w.m2, w.m1], total: 5 })
      expect(presentKeys(listed.items[0], ['partnerId', 'phone', 'passwordHash'])).toEqual([])
      expect(presentKeys(listed.items[4], ['fullName', 'partnerId', 'phone', 'passwordHash'])).toEqual([])
    })

    test('narrows the list to one partner’s members, never another organization’s', async () => {
      const w = await memberWorld()

      expect(await read().members.list(w.org, { partnerId: w.p1.id }, ALL)).toEqual({ items: [w.m4, w.m2], total: 2 })
      expect(await read().members.list(w.org, { partnerId: w.p2.id }, ALL)).toEqual({ items: [w.m3], total: 1 })
      expect(await read().members.list(w.org, { partnerId: w.foreign.partnerId }, ALL)).toEqual({ items: [], total: 0 })
      expect(await read().members.list(w.foreign.organizationId, {}, ALL)).toEqual({ items: [w.foreign], total: 1 })
    })

    test('pages the member list, total counting every match', async () => {
      const w = await memberWorld()
      const page = (n: number) => read().members.list(w.org, {}, { page: n, limit: 2 })

      expect(await page(1)).toEqual({ items: [w.m5, w.m4], total: 5 })
      expect(await page(2)).toEqual({ items: [w.m3, w.m2], total: 5 })
      expect(await page(3)).toEqual({ items: [w.m1], total: 5 })
      expect(await page(4)).toEqual({ items: [], total: 5 })
      expect(await read().members.list(w.org, { partnerId: w.p1.id }, { page: 2, limit: 1 })).toEqual({ items: [w.m2], total: 2 })
    })

    test('counts an organization’s members of one role', async () => {
      const w = await memberWorld()

      expect(await read().members.countSigningInByRole(w.org, 'partner_agent')).toBe(2)
      expect(await read().members.countSigningInByRole(w.org, 'org_admin')).toBe(1)
      expect(await read().members.countSigningInByRole(w.org, 'volunteer')).toBe(0)
      expect(await read().members.countSigningInByRole(w.foreign.organizationId, 'partner_agent')).toBe(1)
      expect(await read().members.countSigningInByRole(w.foreign.organizationId, 'org_admin')).toBe(0)
      // A role change is counted at once.
      await write((r) => r.members.update({ ...w.m5, role: 'org_admin' }))
      expect(await read().members.countSigningInByRole(w.org, 'org_admin')).toBe(2)
      expect(await read().members.countSigningInByRole(w.org, 'staff')).toBe(0)
      // A deactivated member is not counted, an invited one not yet.
      await write((r) => r.members.update({ ...w.m5, role: 'org_admin', deactivatedAt: minute(9) }))
      expect(await read().members.countSigningInByRole(w.org, 'org_admin')).toBe(1)
    })

    test('keeps a member’s language and the notification kinds it chose, and clears them', async () => {
      const w = await memberWorld()
      const choosing = { ...w.m3, language: 'es' as const, notifications: { newNeeds: true, dailyDigest: false } }
      await write((r) => r.members.update(choosing))
      expect(await read().members.findById(w.org, w.m3.id)).toEqual(choosing)
      await write((r) => r.members.update(w.m3))
      expect(await read().members.findById(w.org, w.m3.id)).toEqual(w.m3)
    })

    test('keeps a deactivation, lists members by whether they are active, and clears it on reactivation', async () => {
      const w = await memberWorld()
      const deactivated = { ...w.m2, deactivatedAt: minute(9) }
      await write((r) => r.members.update(deactivated))

      expect(await read().members.findById(w.org, w.m2.id)).toEqual(deactivated)
      expect(await read().members.list(w.org, { active: false }, { page: 1, limit: 10 })).toEqual({ items: [deactivated], total: 1 })
      expect((await read().members.list(w.org, { active: true }, { page: 1, limit: 10 })).items.map((m) => m.id)).toEqual([
        w.m5.id,
        w.m4.id,
        w.m3.id,
        w.m1.id,
      ])
      expect((await read().members.listActive(w.org)).map((m) => m.id)).toEqual([w.m5.id, w.m4.id, w.m3.id, w.m1.id])
      expect(await read().members.list(w.org, { partnerId: w.p1.id, active: false }, { page: 1, limit: 10 })).toEqual({
        items: [deactivated],
        total: 1,
      })

      await write((r) => r.members.update(w.m2))
      expect(await read().members.findById(w.org, w.m2.id)).toEqual(w.m2)
      expect((await read().members.list(w.org, { active: false }, { page: 1, limit: 10 })).total).toBe(0)
    })

    test('records a login’s time alone, in the member’s organization only', async () => {
      const { organization: a } = await anOrganizationWithPartner()
      const { organization: b } = await anOrganizationWithPartner()
      const member = await aMemberOf(a.id, { fullName: 'Kept Name' })

      await write((r) => r.members.recordLogin(b.id, member.id, minute(3)))
      expect(await read().members.findById(a.id, member.id)).toEqual(member)

      await write((r) => r.members.recordLogin(a.id, member.id, minute(4)))
      expect(await read().members.findById(a.id, member.id)).toEqual({ ...member, lastLoginAt: minute(4) })
      expect((await read().members.list(a.id, {}, { page: 1, limit: 10 })).items).toEqual([{ ...member, lastLoginAt: minute(4) }])
    })
  })
}
