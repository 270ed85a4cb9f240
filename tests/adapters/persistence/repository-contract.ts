import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { Persistence } from '../../../src/application/ports/persistence'
import type { NeedFilter } from '../../../src/application/ports/repositories/need-repository'
import type { RefreshTokenRecord } from '../../../src/application/ports/repositories/refresh-token-repository'
import type { Repositories } from '../../../src/application/ports/repositories'
import type { Member } from '../../../src/domain/members/member'
import type { Interaction } from '../../../src/domain/needs/interaction'
import { FIRST_REFERENCE_NUMBER, type Need, type NeedChange } from '../../../src/domain/needs/need'
import type { Organization } from '../../../src/domain/organizations/organization'
import { aMember, aNeed, anOrganization, aPartner } from '../../support/builders'
import { describeAuditContract } from './audit-contract'
import { describeConstituentContract } from './constituent-contract'
import { aConstituent, aHousehold, ascendingIds, byId, ids, minute, presentKeys } from './contract-support'
import { describeMembersSettingsOutboxContract } from './members-settings-outbox-contract'
import { describeSendLimitsContract } from './send-limits-contract'
import { describeSmsContract } from './sms-contract'
import { describeWebhookContract } from './webhook-contract'

export interface RepositoryFixture {
  persistence: Persistence
  cleanup(): Promise<void>
}

function aRefreshToken(overrides: Partial<RefreshTokenRecord> & Pick<RefreshTokenRecord, 'memberId' | 'organizationId'>): RefreshTokenRecord {
  return {
    id: randomUUID(),
    familyId: randomUUID(),
    tokenHash: randomUUID().replaceAll('-', ''),
    createdAt: minute(0),
    expiresAt: minute(60 * 24 * 30),
    ...overrides,
  }
}

function anInteraction(overrides: Partial<Interaction> & Pick<Interaction, 'organizationId'>): Interaction {
  return { id: randomUUID(), channel: 'note', senderIdentifier: 'staff@example.org', createdAt: minute(0), ...overrides }
}

/** Every change of a need (the tests append a few). */
const ALL = { page: 1, limit: 100 }

function aChange(overrides: Partial<NeedChange> & Pick<NeedChange, 'organizationId' | 'needId'>): NeedChange {
  return { id: randomUUID(), field: 'status', changedAt: minute(0), ...overrides }
}

/** A promise and the function that resolves it: lets a test hold a transaction open. */
function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { open, opened }
}

const realTimer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * The repository contract: what every persistence adapter must do, run against each of them. Writes go
 * through `unitOfWork.run`, reads of committed data through `persistence.repositories`. One store serves
 * the whole suite, so every test works in organizations (and emails, token hashes) of its own.
 */
export function describeRepositories(name: string, make: () => Promise<RepositoryFixture>): void {
  describe(`${name} persistence contract`, () => {
    let fixture: RepositoryFixture
    beforeAll(async () => {
      fixture = await make()
    })
    afterAll(async () => {
      await fixture?.cleanup()
    })

    const read = (): Repositories => fixture.persistence.repositories
    const write = <T>(work: (r: Repositories) => Promise<T>): Promise<T> => fixture.persistence.unitOfWork.run(work)

    /** An organization with its default partner, committed. */
    async function anOrganizationWithPartner(overrides: Partial<Organization> = {}) {
      const organization = anOrganization(overrides)
      const partner = aPartner({ organizationId: organization.id, isDefault: true, createdAt: minute(0) })
      await write(async (r) => {
        await r.organizations.insert(organization)
        await r.partners.insert(partner)
      })
      return { organization, partner }
    }

    async function aMemberOf(organizationId: string, overrides: Partial<Member> = {}) {
      const member = aMember({ organizationId, ...overrides })
      await write((r) => r.members.insert(member))
      return member
    }

    /** A constituent in a household of its own, both written through the ports. */
    async function aConstituentOf(organizationId: string) {
      const household = aHousehold({ organizationId })
      const constituent = aConstituent({ organizationId, householdId: household.id, firstName: 'Ana' })
      await write(async (r) => {
        await r.constituents.insertHousehold(household)
        await r.constituents.insert(constituent)
      })
      return { householdId: household.id, constituentId: constituent.id }
    }

    async function insertNeeds(...needs: Need[]) {
      await write(async (r) => {
        for (const need of needs) await r.needs.insert(need)
      })
    }

    test('answers ping', async () => {
      expect(await fixture.persistence.ping()).toBe(true)
    })

    test('a lookup sees the writes of the transaction it runs in, transaction after transaction', async () => {
      // The lookups made on every request are prepared once per database (PostgreSQL shares them between the
      // pool and every transaction): each run must still read through the transaction at hand.
      const kept = anOrganization()
      const undone = anOrganization()
      await write(async (r) => {
        await r.organizations.insert(kept)
        expect(await r.organizations.findById(kept.id)).toEqual(kept)
      })
      const rolledBack = write(async (r) => {
        expect(await r.organizations.findById(kept.id)).toEqual(kept)
        await r.organizations.insert(undone)
        expect(await r.organizations.findById(undone.id)).toEqual(undone)
        throw new Error('undo')
      })
      await expect(rolledBack).rejects.toThrow('undo')
      expect(await read().organizations.findById(undone.id)).toBeUndefined()
      await write(async (r) => {
        expect(await r.organizations.findById(undone.id)).toBeUndefined()
        expect(await r.organizations.findById(kept.id)).toEqual(kept)
      })
    })

    describe('organizations', () => {
      test('keeps every optional field through insert and find', async () => {
        const organization = anOrganization({
          shortCode: 'FBNK',
          tcrStatus: 'APPROVED',
          phoneNumber: '+15551230000',
          maxConcurrency: 7,
          appOrigins: ['https://staff.example.org', 'https://app.example.org:8443'],
          formOrigins: ['https://pantry.example.net'],
          createdAt: minute(3),
        })
        await write((r) => r.organizations.insert(organization))

        expect(await read().organizations.findById(organization.id)).toEqual(organization)
        expect(await read().organizations.findBySlug(organization.slug)).toEqual(organization)
      })

      test('leaves absent optional fields absent, not null', async () => {
        const organization = anOrganization()
        await write((r) => r.organizations.insert(organization))

        const found = await read().organizations.findById(organization.id)
        expect(found).toEqual(organization)
        expect(presentKeys(found, ['shortCode', 'tcrStatus', 'phoneNumber', 'appOrigins', 'formOrigins'])).toEqual([])
        expect(presentKeys(await read().organizations.findBySlug(organization.slug), ['shortCode', 'tcrStatus', 'phoneNumber', 'appOrigins', 'formOrigins'])).toEqual([])
      })

      test('answers undefined for an unknown id or slug', async () => {
        expect(await read().organizations.findById(randomUUID())).toBeUndefined()
        expect(await read().organizations.findBySlug(`no-such-${randomUUID()}`)).toBeUndefined()
      })

      test('counts the organizations', async () => {
        const before = await read().organizations.count()
        await write(async (r) => {
          await r.organizations.insert(anOrganization())
          await r.organizations.insert(anOrganization())
        })
        expect(await read().organizations.count()).toBe(before + 2)
      })

      test('hands out need numbers from 1001, one sequence per organization', async () => {
        const { organization: a } = await anOrganizationWithPartner()
        const { organization: b } = await anOrganizationWithPartner()

        const taken = await write(async (r) => [
          (await r.organizations.takeNextNeedReference(a.id))!.number,
          (await r.organizations.takeNextNeedReference(a.id))!.number,
          (await r.organizations.takeNextNeedReference(b.id))!.number,
          (await r.organizations.takeNextNeedReference(a.id))!.number,
        ])
        const next = await write(async (r) => [(await r.organizations.takeNextNeedReference(b.id))!.number, (await r.organizations.takeNextNeedReference(a.id))!.number])

        expect(FIRST_REFERENCE_NUMBER).toBe(1001)
        expect(taken).toEqual([1001, 1002, 1001, 1003])
        expect(next).toEqual([1002, 1004])
      })

      test('answers no need number for an unknown organization, and the short code with the number', async () => {
        expect(await write((r) => r.organizations.takeNextNeedReference(randomUUID()))).toBeUndefined()
        const { organization } = await anOrganizationWithPartner({ shortCode: 'FB' })
        const { organization: without } = await anOrganizationWithPartner()
        expect(await write((r) => r.organizations.takeNextNeedReference(organization.id))).toEqual({ number: 1001, shortCode: 'FB' })
        expect(await write((r) => r.organizations.takeNextNeedReference(without.id))).toEqual({ number: 1001 })
      })
    })

    describe('partners', () => {
      test('keeps every optional field through insert and find', async () => {
        const { organization } = await anOrganizationWithPartner()
        const partner = aPartner({
          organizationId: organization.id,
          name: 'North Pantry',
          slaHours: 72,
          isArchived: true,
          description: 'Dry goods and fresh produce',
          keywords: ['food', 'produce'],
          website: 'https://north.example.org',
          publicCategoryName: 'Food',
          createdAt: minute(5),
        })
        await write((r) => r.partners.insert(partner))

        expect(await read().partners.findById(organization.id, partner.id)).toEqual(partner)
      })

      test('leaves absent optional fields absent, not null', async () => {
        const { organization } = await anOrganizationWithPartner()
        const partner = aPartner({ organizationId: organization.id })
        await write((r) => r.partners.insert(partner))

        const found = await read().partners.findById(organization.id, partner.id)
        expect(found).toEqual(partner)
        expect(presentKeys(found, ['description', 'keywords', 'website', 'publicCategoryName'])).toEqual([])
      })

      test('updates fields and clears optional ones', async () => {
        const { organization } = await anOrganizationWithPartner()
        const partner = aPartner({ organizationId: organization.id, description: 'Old', keywords: ['a'], website: 'https://old.example.org', publicCategoryName: 'Old' })
        await write((r) => r.partners.insert(partner))

        // One field cleared by leaving it out, one by setting it undefined, as a spread of changes does.
        const { keywords: _keywords, website: _website, description: _description, ...kept } = partner
        await write((r) => r.partners.update({ ...kept, name: 'Renamed', slaHours: 24, isArchived: true, description: undefined, publicCategoryName: 'New' }))

        const found = await read().partners.findById(organization.id, partner.id)
        expect(found).toEqual({ ...kept, name: 'Renamed', slaHours: 24, isArchived: true, publicCategoryName: 'New' })
        expect(presentKeys(found, ['description', 'keywords', 'website'])).toEqual([])
      })

      test('never shows or updates a partner of another organization', async () => {
        const { organization: a, partner } = await anOrganizationWithPartner()
        const { organization: b } = await anOrganizationWithPartner()

        await write((r) => r.partners.update({ ...partner, organizationId: b.id, name: 'Hijacked', isDefault: false }))

        expect(await read().partners.findById(b.id, partner.id)).toBeUndefined()
        expect(await read().partners.findById(a.id, partner.id)).toEqual(partner)
        expect(ids(await read().partners.listAll(b.id))).not.toContain(partner.id)
      })

      test('lists every partner of the organization, oldest first', async () => {
        const { organization, partner: first } = await anOrganizationWithPartner()
        const { partner: foreign } = await anOrganizationWithPartner()
        const third = aPartner({ organizationId: organization.id, createdAt: minute(30) })
        const second = aPartner({ organizationId: organization.id, createdAt: minute(10) })
        await write(async (r) => {
          await r.partners.insert(third)
          await r.partners.insert(second)
        })

        const listed = await read().partners.listAll(organization.id)
        expect(listed).toEqual([first, second, third])
        expect(ids(listed)).not.toContain(foreign.id)
      })

      test('clears the default flag of every partner but the one kept, in that organization only', async () => {
        const { organization: a, partner: oldDefault } = await anOrganizationWithPartner()
        const { organization: b, partner: otherDefault } = await anOrganizationWithPartner()
        const newDefault = aPartner({ organizationId: a.id, createdAt: minute(1) })
        await write((r) => r.partners.insert(newDefault))

        await write(async (r) => {
          await r.partners.clearDefaultExcept(a.id, newDefault.id)
          await r.partners.update({ ...newDefault, isDefault: true })
        })

        expect((await read().partners.findById(a.id, oldDefault.id))?.isDefault).toBe(false)
        expect((await read().partners.findById(a.id, newDefault.id))?.isDefault).toBe(true)
        expect((await read().partners.findById(b.id, otherDefault.id))?.isDefault).toBe(true)
      })

      test('keeps the default when it is the partner kept', async () => {
        const { organization, partner } = await anOrganizationWithPartner()
        await write((r) => r.partners.clearDefaultExcept(organization.id, partner.id))

        expect(await read().partners.findById(organization.id, partner.id)).toEqual(partner)
      })
    })

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
        const member = await aMemberOf(organization.id, { fullName: 'Old Name', role: 'partner_admin', partnerId: partner.id, phone: '+15551230002' })

        const { fullName: _fullName, partnerId: _partnerId, ...kept } = member
        await write((r) => r.members.update({ ...kept, role: 'staff', partnerId: undefined, profiles: ['intake_staff'], isConfirmed: false, passwordHash: 'hash' }))

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

    describe('needs', () => {
      test('keeps every optional field through insert and find', async () => {
        const { organization, partner } = await anOrganizationWithPartner()
        const member = await aMemberOf(organization.id)
        const { constituentId, householdId } = await aConstituentOf(organization.id)
        const need = aNeed({
          organizationId: organization.id,
          partnerId: partner.id,
          status: 'PENDING_CLIENT',
          customFields: { bags: 2, notes: 'ring twice', nested: { list: [1, 'two', null], ok: true } },
          isConfidential: true,
          parentNeedId: randomUUID(),
          assignedTo: member.id,
          createdBy: member.id,
          createdAt: minute(1),
          updatedAt: minute(2),
          dueDate: minute(48 * 60),
          constituentId,
          householdId,
          duplicateWarning: 'Possible duplicate of REQ-1001',
          referenceNumber: 'REQ-1001',
        })
        await insertNeeds(need)

        expect(await read().needs.findById(organization.id, need.id)).toEqual(need)
        expect(await read().needs.findByReferenceNumber(organization.id, 'REQ-1001')).toEqual(need)
      })

      test('leaves absent optional fields absent, not null', async () => {
        const { organization, partner } = await anOrganizationWithPartner()
        const need = aNeed({ organizationId: organization.id, partnerId: partner.id })
        await insertNeeds(need)

        const found = await read().needs.findById(organization.id, need.id)
        expect(found).toEqual(need)
        expect(presentKeys(found, ['parentNeedId', 'assignedTo', 'createdBy', 'dueDate', 'constituentId', 'householdId', 'duplicateWarning'])).toEqual([])
      })

      test('answers undefined for an unknown id or reference number', async () => {
        const { organization } = await anOrganizationWithPartner()
        expect(await read().needs.findById(organization.id, randomUUID())).toBeUndefined()
        expect(await read().needs.findByReferenceNumber(organization.id, 'REQ-999999')).toBeUndefined()
      })

      test('updates fields and clears optional ones', async () => {
        const { organization, partner } = await anOrganizationWithPartner()
        const member = await aMemberOf(organization.id)
        const other = aPartner({ organizationId: organization.id })
        await write((r) => r.partners.insert(other))
        const need = aNeed({ organizationId: organization.id, partnerId: partner.id, assignedTo: member.id, dueDate: minute(60), duplicateWarning: 'maybe' })
        await insertNeeds(need)

        const { duplicateWarning: _warning, ...withoutWarning } = need
        const updated: Need = {
          ...withoutWarning,
          partnerId: other.id,
          status: 'IN_PROGRESS',
          customFields: { replaced: true },
          isConfidential: true,
          assignedTo: undefined,
          dueDate: minute(120),
          updatedAt: minute(5),
        }
        await write((r) => r.needs.update(updated))

        const found = await read().needs.findById(organization.id, need.id)
        const { assignedTo: _assignedTo, ...expected } = updated
        expect(found).toEqual(expected)
        expect(presentKeys(found, ['assignedTo', 'duplicateWarning'])).toEqual([])
      })

      test('never shows, lists or updates a need of another organization', async () => {
        const { organization: a, partner } = await anOrganizationWithPartner()
        const { organization: b } = await anOrganizationWithPartner()
        const need = aNeed({ organizationId: a.id, partnerId: partner.id })
        await insertNeeds(need)

        await write((r) => r.needs.update({ ...need, organizationId: b.id, status: 'RESOLVED', customFields: { hijacked: true } }))

        expect(await read().needs.findById(b.id, need.id)).toBeUndefined()
        expect(await read().needs.findByReferenceNumber(b.id, need.referenceNumber)).toBeUndefined()
        expect(await read().needs.list(b.id, {}, { page: 1, limit: 100 })).toEqual({ items: [], total: 0 })
        expect(await read().needs.list(a.id, { partnerId: partner.id }, { page: 1, limit: 100 })).toEqual({ items: [need], total: 1 })
        expect(await read().needs.findById(a.id, need.id)).toEqual(need)
      })

      test('keeps reference numbers apart per organization', async () => {
        const { organization: a, partner: pa } = await anOrganizationWithPartner()
        const { organization: b, partner: pb } = await anOrganizationWithPartner()
        const inA = aNeed({ organizationId: a.id, partnerId: pa.id, referenceNumber: 'REQ-1001' })
        const inB = aNeed({ organizationId: b.id, partnerId: pb.id, referenceNumber: 'REQ-1001' })
        await insertNeeds(inA, inB)

        expect(await read().needs.findByReferenceNumber(a.id, 'REQ-1001')).toEqual(inA)
        expect(await read().needs.findByReferenceNumber(b.id, 'REQ-1001')).toEqual(inB)
      })

      describe('list', () => {
        /** One organization's needs spread over partners, statuses, assignees and a constituent, plus a foreign one. */
        async function listWorld() {
          const { organization, partner: p1 } = await anOrganizationWithPartner()
          const p2 = aPartner({ organizationId: organization.id })
          await write((r) => r.partners.insert(p2))
          const member = await aMemberOf(organization.id)
          const { constituentId, householdId } = await aConstituentOf(organization.id)
          const org = organization.id
          const [tieLow, tieHigh] = ascendingIds(2) as [string, string]
          const n1 = aNeed({ organizationId: org, partnerId: p1.id, status: 'NEW', createdAt: minute(1) })
          const n2 = aNeed({ organizationId: org, partnerId: p2.id, status: 'IN_PROGRESS', assignedTo: member.id, createdAt: minute(2) })
          const n3 = aNeed({ id: tieLow, organizationId: org, partnerId: p1.id, status: 'RESOLVED', constituentId, householdId, createdAt: minute(3) })
          const n4 = aNeed({ id: tieHigh, organizationId: org, partnerId: p1.id, status: 'NEW', assignedTo: member.id, constituentId, createdAt: minute(3) })
          const n5 = aNeed({ organizationId: org, partnerId: p2.id, status: 'ESCALATED', createdAt: minute(4) })
          // Oldest first, so an adapter that answers in insertion order fails.
          await insertNeeds(n1, n2, n3, n4, n5)
          const { organization: foreignOrg, partner: foreignPartner } = await anOrganizationWithPartner()
          const foreign = aNeed({ organizationId: foreignOrg.id, partnerId: foreignPartner.id, status: 'NEW', createdAt: minute(9) })
          await insertNeeds(foreign)
          return { org, p1, p2, member, constituentId, n1, n2, n3, n4, n5, foreign }
        }
        const all = { page: 1, limit: 100 }

        test('lists newest first, id as tie-break, only the organization’s needs', async () => {
          const w = await listWorld()
          const page = await read().needs.list(w.org, {}, all)

          expect(page.total).toBe(5)
          // n3 and n4 share a createdAt: the higher id comes first.
          expect(page.items).toEqual([w.n5, w.n4, w.n3, w.n2, w.n1])
        })

        test('orders needs with one createdAt by id, descending', async () => {
          const { organization, partner } = await anOrganizationWithPartner()
          const needs = ascendingIds(4).map((id) => aNeed({ id, organizationId: organization.id, partnerId: partner.id, createdAt: minute(10) }))
          await insertNeeds(...needs)

          expect(ids((await read().needs.list(organization.id, {}, all)).items)).toEqual(ids(needs).reverse())
        })

        test('filters by statuses', async () => {
          const w = await listWorld()
          expect(await read().needs.list(w.org, { statuses: ['NEW', 'ESCALATED'] }, all)).toEqual({ items: [w.n5, w.n4, w.n1], total: 3 })
          expect(await read().needs.list(w.org, { statuses: ['ESCALATED', 'NEW', 'ESCALATED', 'NEW'] }, all)).toEqual({ items: [w.n5, w.n4, w.n1], total: 3 })
          expect(await read().needs.list(w.org, { statuses: ['RESOLVED'] }, all)).toEqual({ items: [w.n3], total: 1 })
          expect(await read().needs.list(w.org, { statuses: ['PENDING_INTERNAL'] }, all)).toEqual({ items: [], total: 0 })
        })

        test('matches nothing with an empty statuses list', async () => {
          const w = await listWorld()
          expect(await read().needs.list(w.org, { statuses: [] }, all)).toEqual({ items: [], total: 0 })
        })

        test('filters by partner', async () => {
          const w = await listWorld()
          expect(await read().needs.list(w.org, { partnerId: w.p2.id }, all)).toEqual({ items: [w.n5, w.n2], total: 2 })
        })

        test('filters by assignee', async () => {
          const w = await listWorld()
          expect(await read().needs.list(w.org, { assignedTo: w.member.id }, all)).toEqual({ items: [w.n4, w.n2], total: 2 })
        })

        test('filters by constituent', async () => {
          const w = await listWorld()
          expect(await read().needs.list(w.org, { constituentId: w.constituentId }, all)).toEqual({ items: [w.n4, w.n3], total: 2 })
        })

        test('combines filters', async () => {
          const w = await listWorld()
          expect(await read().needs.list(w.org, { partnerId: w.p1.id, statuses: ['NEW'] }, all)).toEqual({ items: [w.n4, w.n1], total: 2 })
          expect(await read().needs.list(w.org, { partnerId: w.p1.id, assignedTo: w.member.id, constituentId: w.constituentId, statuses: ['NEW', 'RESOLVED'] }, all)).toEqual({
            items: [w.n4],
            total: 1,
          })
        })

        test('never lists another organization’s needs, even when filtering by its partner', async () => {
          const w = await listWorld()
          expect(await read().needs.list(w.org, { partnerId: w.foreign.partnerId }, all)).toEqual({ items: [], total: 0 })
          expect(await read().needs.list(w.foreign.organizationId, {}, all)).toEqual({ items: [w.foreign], total: 1 })
        })

        test('pages with page and limit, total counting every match', async () => {
          const w = await listWorld()
          const page = (n: number) => read().needs.list(w.org, {}, { page: n, limit: 2 })

          expect(await page(1)).toEqual({ items: [w.n5, w.n4], total: 5 })
          expect(await page(2)).toEqual({ items: [w.n3, w.n2], total: 5 })
          expect(await page(3)).toEqual({ items: [w.n1], total: 5 })
          expect(await page(4)).toEqual({ items: [], total: 5 })
          expect(await read().needs.list(w.org, { statuses: ['NEW', 'IN_PROGRESS'] }, { page: 2, limit: 1 })).toEqual({ items: [w.n2], total: 3 })
        })

        describe('listAfter (exports, by keyset)', () => {
          /** Every batch of `size` from the start, each read after the last one's final need. */
          async function walk(org: string, filter: NeedFilter, size: number) {
            const batches: Need[][] = []
            for (let after: Need | undefined; ; ) {
              const batch = await read().needs.listAfter(org, filter, after, size)
              if (batch.length > 0) batches.push(batch)
              if (batch.length < size) return batches
              after = batch.at(-1)
            }
          }

          test('walks the whole list in list order, batch after batch, each need once', async () => {
            const w = await listWorld()
            expect(await walk(w.org, {}, 2)).toEqual([[w.n5, w.n4], [w.n3, w.n2], [w.n1]])
            expect(await walk(w.org, {}, 5)).toEqual([[w.n5, w.n4, w.n3, w.n2, w.n1]])
          })

          test('steps over needs of the same time by id, however many share it', async () => {
            const { organization, partner } = await anOrganizationWithPartner()
            const needs = ascendingIds(5).map((id) => aNeed({ id, organizationId: organization.id, partnerId: partner.id, createdAt: minute(10) }))
            await insertNeeds(...needs)
            expect((await walk(organization.id, {}, 2)).flat()).toEqual([...needs].reverse())
          })

          test('keeps the list filters, and only the organization’s needs', async () => {
            const w = await listWorld()
            expect((await walk(w.org, { statuses: ['NEW', 'ESCALATED'] }, 1)).flat()).toEqual([w.n5, w.n4, w.n1])
            expect((await walk(w.org, { partnerId: w.p1.id, assignedTo: w.member.id }, 1)).flat()).toEqual([w.n4])
            expect((await walk(w.org, { constituentId: w.constituentId }, 1)).flat()).toEqual([w.n4, w.n3])
            expect(await walk(w.org, { statuses: [] }, 2)).toEqual([])
            expect(await walk(w.org, { partnerId: w.foreign.partnerId }, 2)).toEqual([])
            expect(await read().needs.listAfter(w.foreign.organizationId, {}, undefined, 10)).toEqual([w.foreign])
          })

          test('a need added during a walk, newer than where it stands, neither shifts nor repeats what follows', async () => {
            const w = await listWorld()
            const first = await read().needs.listAfter(w.org, {}, undefined, 2)
            await insertNeeds(aNeed({ organizationId: w.org, partnerId: w.p1.id, createdAt: minute(8) }))
            expect(await read().needs.listAfter(w.org, {}, first.at(-1), 10)).toEqual([w.n3, w.n2, w.n1])
          })
        })

        test('totals follow every change of status and partner, and a rolled-back change leaves them as they were', async () => {
          const w = await listWorld()
          const total = async (filter: NeedFilter) => (await read().needs.list(w.org, filter, { page: 1, limit: 1 })).total
          const totals = async () => [await total({}), await total({ statuses: ['NEW'] }), await total({ partnerId: w.p2.id }), await total({ partnerId: w.p2.id, statuses: ['NEW', 'RESOLVED'] })]
          expect(await totals()).toEqual([5, 2, 2, 0])

          await write((r) => r.needs.update({ ...w.n1, partnerId: w.p2.id, status: 'RESOLVED' }))
          await write((r) => r.needs.update({ ...w.n2, status: 'NEW' }))
          expect(await totals()).toEqual([5, 2, 3, 2])
          await write((r) => r.needs.update({ ...w.n2, status: 'NEW', customFields: { unchanged: 'counts' } }))
          expect(await totals()).toEqual([5, 2, 3, 2])

          const failure = new Error('after the change')
          await expect(
            write(async (r) => {
              await r.needs.update({ ...w.n4, partnerId: w.p2.id })
              await r.needs.insert(aNeed({ organizationId: w.org, partnerId: w.p2.id, status: 'NEW' }))
              throw failure
            }),
          ).rejects.toBe(failure)
          expect(await totals()).toEqual([5, 2, 3, 2])
          expect(await read().needs.list(w.foreign.organizationId, { statuses: ['NEW'] }, all)).toEqual({ items: [w.foreign], total: 1 })
        })
      })

      describe('changes', () => {
        test('keeps appended changes, in the order they happened, optional fields absent when absent', async () => {
          const { organization, partner } = await anOrganizationWithPartner()
          const member = await aMemberOf(organization.id)
          const need = aNeed({ organizationId: organization.id, partnerId: partner.id })
          await insertNeeds(need)
          const full = aChange({ organizationId: organization.id, needId: need.id, field: 'status', from: 'NEW', to: 'IN_PROGRESS', changedBy: member.id, changedAt: minute(1) })
          const bare = aChange({ organizationId: organization.id, needId: need.id, field: 'assignedTo', changedAt: minute(2) })
          const cleared = aChange({ organizationId: organization.id, needId: need.id, field: 'assignedTo', from: member.id, changedAt: minute(3) })
          await write(async (r) => {
            await r.needs.appendChanges([full])
            await r.needs.appendChanges([bare, cleared])
          })

          const changes = (await read().needs.listChanges(organization.id, need.id, ALL)).items
          expect(changes).toEqual([full, bare, cleared])
          expect(presentKeys(changes[1], ['from', 'to', 'changedBy'])).toEqual([])
          expect(presentKeys(changes[2], ['to', 'changedBy'])).toEqual([])
        })

        test('leaves out optional fields given as undefined, as use cases write them', async () => {
          const { organization, partner } = await anOrganizationWithPartner()
          const need = aNeed({ organizationId: organization.id, partnerId: partner.id })
          await insertNeeds(need)
          const change = aChange({ organizationId: organization.id, needId: need.id, field: 'assignedTo', from: undefined, to: 'someone', changedBy: undefined })
          await write((r) => r.needs.appendChanges([change]))

          const [found] = (await read().needs.listChanges(organization.id, need.id, ALL)).items
          expect(found).toEqual(change)
          expect(presentKeys(found, ['from', 'changedBy'])).toEqual([])
        })

        test('accepts an empty list of changes', async () => {
          const { organization, partner } = await anOrganizationWithPartner()
          const need = aNeed({ organizationId: organization.id, partnerId: partner.id })
          await insertNeeds(need)
          await write((r) => r.needs.appendChanges([]))

          expect((await read().needs.listChanges(organization.id, need.id, ALL)).items).toEqual([])
        })

        test('lists only the changes of that need in that organization', async () => {
          const { organization: a, partner } = await anOrganizationWithPartner()
          const { organization: b } = await anOrganizationWithPartner()
          const need = aNeed({ organizationId: a.id, partnerId: partner.id })
          const sibling = aNeed({ organizationId: a.id, partnerId: partner.id })
          await insertNeeds(need, sibling)
          const change = aChange({ organizationId: a.id, needId: need.id, to: 'RESOLVED' })
          await write((r) => r.needs.appendChanges([change, aChange({ organizationId: a.id, needId: sibling.id })]))

          expect((await read().needs.listChanges(a.id, need.id, ALL)).items).toEqual([change])
          expect((await read().needs.listChanges(b.id, need.id, ALL)).items).toEqual([])
        })

        test('keeps the order of several changes appended in one call, whatever their times and ids', async () => {
          const { organization, partner } = await anOrganizationWithPartner()
          const need = aNeed({ organizationId: organization.id, partnerId: partner.id })
          await insertNeeds(need)
          // Descending ids, one time for three and an earlier time last: sorting by time or id would reorder them.
          const [low, middle, high, highest] = ascendingIds(4) as [string, string, string, string]
          const appended = [
            aChange({ id: highest, organizationId: organization.id, needId: need.id, field: 'status', from: 'NEW', to: 'IN_PROGRESS', changedAt: minute(5) }),
            aChange({ id: high, organizationId: organization.id, needId: need.id, field: 'assignedTo', to: 'someone', changedAt: minute(5) }),
            aChange({ id: middle, organizationId: organization.id, needId: need.id, field: 'partnerId', from: partner.id, to: 'other', changedAt: minute(5) }),
            aChange({ id: low, organizationId: organization.id, needId: need.id, field: 'isConfidential', from: 'false', to: 'true', changedAt: minute(4) }),
          ]
          await write((r) => r.needs.appendChanges(appended))
          const later = aChange({ organizationId: organization.id, needId: need.id, field: 'status', from: 'IN_PROGRESS', to: 'RESOLVED', changedAt: minute(1) })
          await write((r) => r.needs.appendChanges([later]))

          expect((await read().needs.listChanges(organization.id, need.id, ALL)).items).toEqual([...appended, later])
        })

        test('pages the changes in their order and tells the total', async () => {
          const { organization, partner } = await anOrganizationWithPartner()
          const need = aNeed({ organizationId: organization.id, partnerId: partner.id })
          await insertNeeds(need)
          const appended = ['IN_PROGRESS', 'PENDING_CLIENT', 'RESOLVED'].map((to) => aChange({ organizationId: organization.id, needId: need.id, to }))
          await write((r) => r.needs.appendChanges(appended))

          const pages = await Promise.all([1, 2, 3].map((page) => read().needs.listChanges(organization.id, need.id, { page, limit: 2 })))
          expect(pages).toEqual([
            { items: appended.slice(0, 2), total: 3 },
            { items: appended.slice(2), total: 3 },
            { items: [], total: 3 },
          ])
        })
      })

      describe('constituent moves', () => {
        /** Two constituents of one organization, each in its own household, plus needs of each and a foreign need. */
        async function moveWorld() {
          const { organization, partner } = await anOrganizationWithPartner()
          const { organization: foreignOrg, partner: foreignPartner } = await anOrganizationWithPartner()
          const org = organization.id
          const source = await aConstituentOf(org)
          const target = await aConstituentOf(org)
          const thirdHousehold = aHousehold({ organizationId: org })
          await write((r) => r.constituents.insertHousehold(thirdHousehold))
          const ofSource = [
            aNeed({ organizationId: org, partnerId: partner.id, constituentId: source.constituentId, householdId: source.householdId }),
            aNeed({ organizationId: org, partnerId: partner.id, constituentId: source.constituentId }),
          ]
          const ofTarget = aNeed({ organizationId: org, partnerId: partner.id, constituentId: target.constituentId, householdId: target.householdId })
          const unattached = aNeed({ organizationId: org, partnerId: partner.id, householdId: source.householdId })
          // Another organization's need naming the same constituent: never touched by this organization's moves.
          const foreign = aNeed({ organizationId: foreignOrg.id, partnerId: foreignPartner.id, constituentId: source.constituentId, householdId: source.householdId })
          await insertNeeds(...ofSource, ofTarget, unattached, foreign)
          return { org, source, target, thirdHousehold, ofSource, ofTarget, unattached, foreign }
        }

        test('moveConstituent points every need of one constituent at another and its household, in that organization only', async () => {
          const w = await moveWorld()

          await write((r) => r.needs.moveConstituent(w.org, w.source.constituentId, w.target.constituentId, w.target.householdId))

          for (const need of w.ofSource) {
            expect(await read().needs.findById(w.org, need.id)).toEqual({ ...need, constituentId: w.target.constituentId, householdId: w.target.householdId })
          }
          expect(await read().needs.findById(w.org, w.ofTarget.id)).toEqual(w.ofTarget)
          expect(await read().needs.findById(w.org, w.unattached.id)).toEqual(w.unattached)
          expect(await read().needs.findById(w.foreign.organizationId, w.foreign.id)).toEqual(w.foreign)
          expect(await read().needs.list(w.org, { constituentId: w.source.constituentId }, { page: 1, limit: 10 })).toEqual({ items: [], total: 0 })
          expect((await read().needs.list(w.org, { constituentId: w.target.constituentId }, { page: 1, limit: 10 })).total).toBe(3)
        })

        test('setHouseholdOfConstituent points the constituent’s needs at the household, in that organization only', async () => {
          const w = await moveWorld()

          await write((r) => r.needs.setHouseholdOfConstituent(w.org, w.source.constituentId, w.thirdHousehold.id))

          for (const need of w.ofSource) {
            expect(await read().needs.findById(w.org, need.id)).toEqual({ ...need, householdId: w.thirdHousehold.id })
          }
          expect(await read().needs.findById(w.org, w.ofTarget.id)).toEqual(w.ofTarget)
          expect(await read().needs.findById(w.org, w.unattached.id)).toEqual(w.unattached)
          expect(await read().needs.findById(w.foreign.organizationId, w.foreign.id)).toEqual(w.foreign)
        })

        test('moves nothing when the constituent has no needs, or is named under another organization', async () => {
          const w = await moveWorld()
          const lonely = await aConstituentOf(w.org)

          await write(async (r) => {
            await r.needs.moveConstituent(w.org, lonely.constituentId, w.target.constituentId, w.target.householdId)
            await r.needs.setHouseholdOfConstituent(w.foreign.organizationId, w.target.constituentId, w.thirdHousehold.id)
          })

          for (const need of [...w.ofSource, w.ofTarget, w.unattached]) expect(await read().needs.findById(w.org, need.id)).toEqual(need)
          expect(await read().needs.findById(w.foreign.organizationId, w.foreign.id)).toEqual(w.foreign)
        })
      })
    })

    describe('interactions', () => {
      test('lists a need’s interactions oldest first, every field kept, absent ones absent', async () => {
        const { organization, partner } = await anOrganizationWithPartner()
        const need = aNeed({ organizationId: organization.id, partnerId: partner.id })
        const other = aNeed({ organizationId: organization.id, partnerId: partner.id })
        await insertNeeds(need, other)
        const newer = anInteraction({ organizationId: organization.id, needId: need.id, channel: 'note', senderIdentifier: 'staff', createdAt: minute(20) })
        const older = anInteraction({
          organizationId: organization.id,
          needId: need.id,
          partnerId: partner.id,
          channel: 'sms',
          senderIdentifier: '+15551230003',
          content: 'On my way',
          createdAt: minute(10),
        })
        await write(async (r) => {
          await r.interactions.insert(newer)
          await r.interactions.insert(older)
          await r.interactions.insert(anInteraction({ organizationId: organization.id, needId: other.id }))
          await r.interactions.insert(anInteraction({ organizationId: organization.id, content: 'unattached' }))
        })

        const listed = await read().interactions.listByNeed(organization.id, need.id, ALL)
        expect(listed).toEqual({ items: [older, newer], total: 2 })
        expect(presentKeys(listed.items[1], ['partnerId', 'content'])).toEqual([])
        // A page at a time, the total counting them all.
        expect(await read().interactions.listByNeed(organization.id, need.id, { page: 2, limit: 1 })).toEqual({ items: [newer], total: 2 })
        expect(await read().interactions.listByNeed(organization.id, need.id, { page: 3, limit: 1 })).toEqual({ items: [], total: 2 })
      })

      test('never lists another organization’s interactions', async () => {
        const { organization: a, partner } = await anOrganizationWithPartner()
        const { organization: b } = await anOrganizationWithPartner()
        const need = aNeed({ organizationId: a.id, partnerId: partner.id })
        await insertNeeds(need)
        const interaction = anInteraction({ organizationId: a.id, needId: need.id, content: 'private' })
        await write((r) => r.interactions.insert(interaction))

        expect(await read().interactions.listByNeed(b.id, need.id, ALL)).toEqual({ items: [], total: 0 })
        expect(await read().interactions.listByNeed(a.id, need.id, ALL)).toEqual({ items: [interaction], total: 1 })
      })
    })

    describeConstituentContract({ read, write, anOrganizationWithPartner, insertNeeds })

    describeMembersSettingsOutboxContract({ read, write, anOrganizationWithPartner, aMemberOf, make })

    describeSmsContract({ read, write, anOrganizationWithPartner, insertNeeds })
    describeSendLimitsContract({ read, write, anOrganizationWithPartner, insertNeeds })

    describeWebhookContract({ read, write, anOrganizationWithPartner })
    describeAuditContract({ read, write, anOrganizationWithPartner })

    describe('refresh tokens', () => {
      async function aMemberWithOrganization() {
        const { organization } = await anOrganizationWithPartner()
        return aMemberOf(organization.id)
      }

      test('finds a token by its hash, absent times absent', async () => {
        const member = await aMemberWithOrganization()
        const token = aRefreshToken({ memberId: member.id, organizationId: member.organizationId })
        await write((r) => r.refreshTokens.insert(token))

        const found = await read().refreshTokens.findByHash(token.tokenHash)
        expect(found).toEqual(token)
        expect(presentKeys(found, ['rotatedAt', 'revokedAt'])).toEqual([])
        expect(await read().refreshTokens.findByHash('no-such-hash')).toBeUndefined()
      })

      test('keeps rotation and revocation times', async () => {
        const member = await aMemberWithOrganization()
        const token = aRefreshToken({ memberId: member.id, organizationId: member.organizationId, rotatedAt: minute(1), revokedAt: minute(2) })
        await write((r) => r.refreshTokens.insert(token))

        expect(await read().refreshTokens.findByHash(token.tokenHash)).toEqual(token)
      })

      test('marks a token rotated once: true the first time, false after', async () => {
        const member = await aMemberWithOrganization()
        const token = aRefreshToken({ memberId: member.id, organizationId: member.organizationId })
        await write((r) => r.refreshTokens.insert(token))

        expect(await write((r) => r.refreshTokens.markRotated(token.id, minute(5)))).toBe(true)
        expect(await write((r) => r.refreshTokens.markRotated(token.id, minute(6)))).toBe(false)
        expect(await read().refreshTokens.findByHash(token.tokenHash)).toEqual({ ...token, rotatedAt: minute(5) })
        expect(await write((r) => r.refreshTokens.markRotated(randomUUID(), minute(7)))).toBe(false)
      })

      test('revokes every session of a member and no other member’s, keeping an earlier revocation', async () => {
        const member = await aMemberWithOrganization()
        const other = await aMemberOf(member.organizationId)
        const tokens = [
          aRefreshToken({ memberId: member.id, organizationId: member.organizationId }),
          aRefreshToken({ memberId: member.id, organizationId: member.organizationId }),
          aRefreshToken({ memberId: member.id, organizationId: member.organizationId, revokedAt: minute(2) }),
        ]
        const others = aRefreshToken({ memberId: other.id, organizationId: other.organizationId })
        await write(async (r) => {
          for (const token of [...tokens, others]) await r.refreshTokens.insert(token)
        })

        await write((r) => r.refreshTokens.revokeMember(member.organizationId, member.id, minute(9)))
        const revoked = await Promise.all(tokens.map((t) => read().refreshTokens.findByHash(t.tokenHash)))
        expect(revoked.map((t) => t?.revokedAt)).toEqual([minute(9), minute(9), minute(2)])
        expect(await read().refreshTokens.findByHash(others.tokenHash)).toEqual(others)
      })

      test('revokes every token of a family and only that family, keeping an earlier revocation', async () => {
        const member = await aMemberWithOrganization()
        const familyId = randomUUID()
        const first = aRefreshToken({ memberId: member.id, organizationId: member.organizationId, familyId, rotatedAt: minute(1) })
        const second = aRefreshToken({ memberId: member.id, organizationId: member.organizationId, familyId })
        const alreadyRevoked = aRefreshToken({ memberId: member.id, organizationId: member.organizationId, familyId, revokedAt: minute(2) })
        const otherFamily = aRefreshToken({ memberId: member.id, organizationId: member.organizationId })
        await write(async (r) => {
          for (const token of [first, second, alreadyRevoked, otherFamily]) await r.refreshTokens.insert(token)
        })

        await write((r) => r.refreshTokens.revokeFamily(familyId, minute(9)))

        expect(await read().refreshTokens.findByHash(first.tokenHash)).toEqual({ ...first, revokedAt: minute(9) })
        expect(await read().refreshTokens.findByHash(second.tokenHash)).toEqual({ ...second, revokedAt: minute(9) })
        expect(await read().refreshTokens.findByHash(alreadyRevoked.tokenHash)).toEqual(alreadyRevoked)
        const untouched = await read().refreshTokens.findByHash(otherFamily.tokenHash)
        expect(untouched).toEqual(otherFamily)
        expect(presentKeys(untouched, ['revokedAt'])).toEqual([])
      })
    })

    describe('members in a session', () => {
      test('finds the member while its session has a token not revoked, and not after the family is revoked', async () => {
        const { organization } = await anOrganizationWithPartner()
        const member = await aMemberOf(organization.id)
        const familyId = randomUUID()
        const rotated = aRefreshToken({ memberId: member.id, organizationId: organization.id, familyId, rotatedAt: minute(1) })
        const current = aRefreshToken({ memberId: member.id, organizationId: organization.id, familyId })
        await write(async (r) => {
          await r.refreshTokens.insert(rotated)
          await r.refreshTokens.insert(current)
        })

        expect(await read().members.findInSession(organization.id, member.id, familyId)).toEqual(member)
        await write((r) => r.refreshTokens.revokeFamily(familyId, minute(2)))
        expect(await read().members.findInSession(organization.id, member.id, familyId)).toBeUndefined()
        expect(await read().members.findById(organization.id, member.id)).toEqual(member)
      })

      test("answers nothing for an unknown session, another member's session, or another organization", async () => {
        const { organization } = await anOrganizationWithPartner()
        const { organization: other } = await anOrganizationWithPartner()
        const member = await aMemberOf(organization.id)
        const colleague = await aMemberOf(organization.id)
        const theirs = aRefreshToken({ memberId: colleague.id, organizationId: organization.id })
        const mine = aRefreshToken({ memberId: member.id, organizationId: organization.id })
        await write(async (r) => {
          await r.refreshTokens.insert(theirs)
          await r.refreshTokens.insert(mine)
        })

        expect(await read().members.findInSession(organization.id, member.id, randomUUID())).toBeUndefined()
        expect(await read().members.findInSession(organization.id, member.id, theirs.familyId)).toBeUndefined()
        expect(await read().members.findInSession(other.id, member.id, mine.familyId)).toBeUndefined()
        expect(await read().members.findInSession(organization.id, member.id, mine.familyId)).toEqual(member)
      })
    })

    describe('login attempts', () => {
      const anEmail = () => `${randomUUID()}@example.org`
      const HERE = '192.0.2.1'
      const THERE = '2001:db8::7'

      test('counts an email’s failures at or after a time, from one address and from all, each with its oldest', async () => {
        const email = anEmail()
        await write(async (r) => {
          await r.loginAttempts.recordFailure(email, HERE, minute(10))
          await r.loginAttempts.recordFailure(email, THERE, minute(5))
          await r.loginAttempts.recordFailure(email, HERE, minute(3))
          await r.loginAttempts.recordFailure(email, THERE, minute(0))
          await r.loginAttempts.recordFailure(anEmail(), HERE, minute(7))
        })

        expect(await read().loginAttempts.failuresSince(email, HERE, minute(0))).toEqual({ total: 4, oldest: minute(0), fromAddress: 2, oldestFromAddress: minute(3) })
        expect(await read().loginAttempts.failuresSince(email, THERE, minute(1))).toEqual({ total: 3, oldest: minute(3), fromAddress: 1, oldestFromAddress: minute(5) })
        expect(await read().loginAttempts.failuresSince(email, HERE, minute(4))).toEqual({ total: 2, oldest: minute(5), fromAddress: 1, oldestFromAddress: minute(10) })
        expect(await read().loginAttempts.failuresSince(email, '198.51.100.9', minute(0))).toEqual({ total: 4, oldest: minute(0), fromAddress: 0 })
      })

      test('answers zeros and no times when no failure is recent enough', async () => {
        const email = anEmail()
        await write((r) => r.loginAttempts.recordFailure(email, HERE, minute(0)))

        expect(await read().loginAttempts.failuresSince(email, HERE, minute(1))).toEqual({ total: 0, fromAddress: 0 })
        expect(await read().loginAttempts.failuresSince(anEmail(), HERE, minute(0))).toEqual({ total: 0, fromAddress: 0 })
      })

      test('clears one email’s failures from one address only', async () => {
        const email = anEmail()
        const other = anEmail()
        await write(async (r) => {
          await r.loginAttempts.recordFailure(email, HERE, minute(1))
          await r.loginAttempts.recordFailure(email, HERE, minute(2))
          await r.loginAttempts.recordFailure(email, THERE, minute(3))
          await r.loginAttempts.recordFailure(other, HERE, minute(3))
        })

        await write((r) => r.loginAttempts.clear(email, HERE))

        expect(await read().loginAttempts.failuresSince(email, HERE, minute(0))).toEqual({ total: 1, oldest: minute(3), fromAddress: 0 })
        expect((await read().loginAttempts.failuresSince(other, HERE, minute(0))).fromAddress).toBe(1)
      })
    })

    describe('records are values', () => {
      test('changing an object after insert or after a read does not change what is stored', async () => {
        const { organization, partner } = await anOrganizationWithPartner()
        const need = aNeed({ organizationId: organization.id, partnerId: partner.id, customFields: { bags: 1 } })
        const stored = structuredClone(need)
        await insertNeeds(need)
        need.status = 'RESOLVED'
        need.customFields.bags = 99

        const found = await read().needs.findById(organization.id, need.id)
        found!.customFields.bags = 42
        found!.status = 'ESCALATED'

        expect(await read().needs.findById(organization.id, need.id)).toEqual(stored)
      })
    })

    describe('unit of work', () => {
      test('answers what the work answers', async () => {
        expect(await write(async () => 'done')).toBe('done')
      })

      test('a write is seen inside its transaction, and outside only once committed', async () => {
        const organization = anOrganization()
        const inserted = gate()
        const release = gate()
        let seenInside: Organization | undefined
        const running = write(async (r) => {
          await r.organizations.insert(organization)
          seenInside = await r.organizations.findById(organization.id)
          inserted.open()
          await release.opened
        })

        await inserted.opened
        expect(seenInside).toEqual(organization)
        expect(await read().organizations.findById(organization.id)).toBeUndefined()
        expect(await read().organizations.findBySlug(organization.slug)).toBeUndefined()

        release.open()
        await running
        expect(await read().organizations.findById(organization.id)).toEqual(organization)
      })

      test('reads outside a transaction see committed values while it is open', async () => {
        const { organization, partner } = await anOrganizationWithPartner()
        const need = aNeed({ organizationId: organization.id, partnerId: partner.id })
        await insertNeeds(need)
        const written = gate()
        const release = gate()
        const running = write(async (r) => {
          await r.partners.update({ ...partner, name: 'Renamed' })
          await r.needs.update({ ...need, status: 'RESOLVED' })
          await r.needs.insert(aNeed({ organizationId: organization.id, partnerId: partner.id }))
          written.open()
          await release.opened
        })

        await written.opened
        expect(await read().partners.findById(organization.id, partner.id)).toEqual(partner)
        expect(await read().needs.list(organization.id, {}, { page: 1, limit: 10 })).toEqual({ items: [need], total: 1 })

        release.open()
        await running
        expect((await read().partners.findById(organization.id, partner.id))?.name).toBe('Renamed')
        expect((await read().needs.list(organization.id, {}, { page: 1, limit: 10 })).total).toBe(2)
      })

      test('units running at once: each one’s failure takes back its own writes only, and each success is committed when answered', async () => {
        const organizations = Array.from({ length: 24 }, () => anOrganization())
        const seenWhenAnswered: Array<Organization | undefined> = []
        const outcomes = await Promise.allSettled(
          organizations.map((organization, i) =>
            write(async (r) => {
              await r.organizations.insert(organization)
              if (i % 3 === 0) await realTimer(1)
              if (i % 4 === 1) throw new Error(`unit ${i} fails`)
              return i
            }).then(async (answer) => {
              seenWhenAnswered[i] = await read().organizations.findById(organization.id)
              return answer
            }),
          ),
        )

        outcomes.forEach((outcome, i) => {
          if (i % 4 === 1) expect(outcome).toEqual({ status: 'rejected', reason: new Error(`unit ${i} fails`) })
          else expect(outcome).toEqual({ status: 'fulfilled', value: i })
        })
        for (const [i, organization] of organizations.entries()) {
          expect(await read().organizations.findById(organization.id)).toEqual(i % 4 === 1 ? undefined : organization)
          if (i % 4 !== 1) expect(seenWhenAnswered[i]).toEqual(organization)
        }
      })

      test('keeps nothing of work that throws after awaiting a real timer, and passes its error on unchanged', async () => {
        const organization = anOrganization()
        const partner = aPartner({ organizationId: organization.id, isDefault: true })
        const failure = new Error('provider down')

        const outcome = write(async (r) => {
          await r.organizations.insert(organization)
          await r.partners.insert(partner)
          await realTimer(5)
          throw failure
        })

        await expect(outcome).rejects.toBe(failure)
        expect(await read().organizations.findById(organization.id)).toBeUndefined()
        expect(await read().partners.findById(organization.id, partner.id)).toBeUndefined()
      })

      test('rolls back updates and need numbers of failed work, and keeps working after it', async () => {
        const { organization, partner } = await anOrganizationWithPartner()
        const failure = new Error('late failure')
        const outcome = write(async (r) => {
          (await r.organizations.takeNextNeedReference(organization.id))!.number
          await r.partners.update({ ...partner, name: 'Never saved' })
          await realTimer(5)
          throw failure
        })
        await expect(outcome).rejects.toBe(failure)

        expect(await read().partners.findById(organization.id, partner.id)).toEqual(partner)
        expect(await write(async (r) => (await r.organizations.takeNextNeedReference(organization.id))!.number)).toBe(FIRST_REFERENCE_NUMBER)
      })

      test('two concurrent transactions taking need numbers get 100 distinct numbers', async () => {
        const { organization } = await anOrganizationWithPartner()
        const takeFifty = () =>
          write(async (r) => {
            const taken: number[] = []
            for (let i = 0; i < 50; i++) {
              taken.push((await r.organizations.takeNextNeedReference(organization.id))!.number)
              await new Promise((resolve) => setImmediate(resolve))
            }
            return taken
          })

        const [first, second] = await Promise.all([takeFifty(), takeFifty()])
        const all = [...first, ...second]

        expect(new Set(all).size).toBe(100)
        expect([...all].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => FIRST_REFERENCE_NUMBER + i))
      })
    })
  })
}
