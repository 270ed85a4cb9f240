import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { NeedChange } from '../../../src/domain/needs/need'
import { aHousehold, aNeed, anInteraction } from '../../support/builders'
import type { ContractContext } from './contract-context'
import { ALL, ascendingIds, minute, presentKeys } from './contract-support'

function aChange(overrides: Partial<NeedChange> & Pick<NeedChange, 'organizationId' | 'needId'>): NeedChange {
  return { id: randomUUID(), field: 'status', changedAt: minute(0), ...overrides }
}

/** A need's history: its changes, its interactions, and the moves of its constituent. */
export function describeNeedHistoryContract({
  read,
  write,
  anOrganizationWithPartner,
  aMemberOf,
  aConstituentOf,
  insertNeeds,
}: ContractContext): void {
  describe('needs', () => {
    describe('changes', () => {
      test('keeps appended changes, in the order they happened, optional fields absent when absent', async () => {
        const { organization, partner } = await anOrganizationWithPartner()
        const member = await aMemberOf(organization.id)
        const need = aNeed({ organizationId: organization.id, partnerId: partner.id })
        await insertNeeds(need)
        const full = aChange({
          organizationId: organization.id,
          needId: need.id,
          field: 'status',
          from: 'NEW',
          to: 'IN_PROGRESS',
          changedBy: member.id,
          changedAt: minute(1),
        })
        const bare = aChange({ organizationId: organization.id, needId: need.id, field: 'assignedTo', changedAt: minute(2) })
        const cleared = aChange({
          organizationId: organization.id,
          needId: need.id,
          field: 'assignedTo',
          from: member.id,
          changedAt: minute(3),
        })
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
        const change = aChange({
          organizationId: organization.id,
          needId: need.id,
          field: 'assignedTo',
          from: undefined,
          to: 'someone',
          changedBy: undefined,
        })
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
          aChange({
            id: highest,
            organizationId: organization.id,
            needId: need.id,
            field: 'status',
            from: 'NEW',
            to: 'IN_PROGRESS',
            changedAt: minute(5),
          }),
          aChange({ id: high, organizationId: organization.id, needId: need.id, field: 'assignedTo', to: 'someone', changedAt: minute(5) }),
          aChange({
            id: middle,
            organizationId: organization.id,
            needId: need.id,
            field: 'partnerId',
            from: partner.id,
            to: 'other',
            changedAt: minute(5),
          }),
          aChange({
            id: low,
            organizationId: organization.id,
            needId: need.id,
            field: 'isConfidential',
            from: 'false',
            to: 'true',
            changedAt: minute(4),
          }),
        ]
        await write((r) => r.needs.appendChanges(appended))
        const later = aChange({
          organizationId: organization.id,
          needId: need.id,
          field: 'status',
          from: 'IN_PROGRESS',
          to: 'RESOLVED',
          changedAt: minute(1),
        })
        await write((r) => r.needs.appendChanges([later]))

        expect((await read().needs.listChanges(organization.id, need.id, ALL)).items).toEqual([...appended, later])
      })

      test('pages the changes in their order and tells the total', async () => {
        const { organization, partner } = await anOrganizationWithPartner()
        const need = aNeed({ organizationId: organization.id, partnerId: partner.id })
        await insertNeeds(need)
        const appended = ['IN_PROGRESS', 'PENDING_CLIENT', 'RESOLVED'].map((to) =>
          aChange({ organizationId: organization.id, needId: need.id, to }),
        )
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
        const ofTarget = aNeed({
          organizationId: org,
          partnerId: partner.id,
          constituentId: target.constituentId,
          householdId: target.householdId,
        })
        const unattached = aNeed({ organizationId: org, partnerId: partner.id, householdId: source.householdId })
        // Another organization's need naming the same constituent: never touched by this organization's moves.
        const foreign = aNeed({
          organizationId: foreignOrg.id,
          partnerId: foreignPartner.id,
          constituentId: source.constituentId,
          householdId: source.householdId,
        })
        await insertNeeds(...ofSource, ofTarget, unattached, foreign)
        return { org, source, target, thirdHousehold, ofSource, ofTarget, unattached, foreign }
      }

      test('moveConstituent points every need of one constituent at another and its household, in that organization only', async () => {
        const w = await moveWorld()

        await write((r) => r.needs.moveConstituent(w.org, w.source.constituentId, w.target.constituentId, w.target.householdId))

        for (const need of w.ofSource) {
          expect(await read().needs.findById(w.org, need.id)).toEqual({
            ...need,
            constituentId: w.target.constituentId,
            householdId: w.target.householdId,
          })
        }
        expect(await read().needs.findById(w.org, w.ofTarget.id)).toEqual(w.ofTarget)
        expect(await read().needs.findById(w.org, w.unattached.id)).toEqual(w.unattached)
        expect(await read().needs.findById(w.foreign.organizationId, w.foreign.id)).toEqual(w.foreign)
        expect(await read().needs.list(w.org, { constituentId: w.source.constituentId }, { page: 1, limit: 10 })).toEqual({
          items: [],
          total: 0,
        })
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
      const newer = anInteraction({
        organizationId: organization.id,
        needId: need.id,
        channel: 'note',
        senderIdentifier: 'staff',
        createdAt: minute(20),
      })
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
}
