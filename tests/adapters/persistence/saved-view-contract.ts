import { randomUUID } from 'node:crypto'
import { describe, expect, test } from 'bun:test'
import { ConflictError } from '../../../src/domain/errors'
import type { SavedView } from '../../../src/domain/members/saved-view'
import type { ContractContext } from './contract-context'
import { ALL, ids, minute, rejectionOf } from './contract-support'

/** The saved views' part of the repository contract: a member's own, named once each, seen by no one else. */
export function describeSavedViewContract({ read, write, anOrganizationWithPartner, aMemberOf }: ContractContext): void {
  const aView = (owner: { organizationId: string; id: string }, overrides: Partial<SavedView> = {}): SavedView => ({
    id: randomUUID(),
    organizationId: owner.organizationId,
    memberId: owner.id,
    name: `View ${randomUUID().slice(0, 8)}`,
    filters: { status: ['NEW', 'IN_PROGRESS'], overdue: true, q: 'rent', sort: '-dueDate' },
    createdAt: minute(0),
    updatedAt: minute(0),
    ...overrides,
  })
  const twoMembers = async () => {
    const { organization } = await anOrganizationWithPartner()
    return Promise.all([aMemberOf(organization.id), aMemberOf(organization.id)])
  }

  describe('saved views', () => {
    test("stores a view as given, its filters as JSON; only its member finds it, not another member's nor another organization's", async () => {
      const [member, colleague] = await twoMembers()
      const { organization: other } = await anOrganizationWithPartner()
      const view = aView(member!)
      await write((r) => r.savedViews.insert(view))
      expect(await read().savedViews.findById(member!.organizationId, member!.id, view.id)).toEqual(view)
      expect(await read().savedViews.findById(member!.organizationId, colleague!.id, view.id)).toBeUndefined()
      expect(await read().savedViews.findById(other.id, member!.id, view.id)).toBeUndefined()
      expect(await read().savedViews.list(member!.organizationId, colleague!.id, ALL)).toEqual({ items: [], total: 0 })
    })

    test('lists a member its views oldest first, id as tie-break, paged, and counts them', async () => {
      const [member, colleague] = await twoMembers()
      const [a, b, c] = [
        aView(member!, { createdAt: minute(2) }),
        aView(member!, { createdAt: minute(1) }),
        aView(member!, { createdAt: minute(3) }),
      ]
      await write(async (r) => {
        for (const view of [a!, b!, c!, aView(colleague!)]) await r.savedViews.insert(view)
      })
      const listed = await read().savedViews.list(member!.organizationId, member!.id, ALL)
      expect(ids(listed.items)).toEqual(ids([b!, a!, c!]))
      expect(listed.total).toBe(3)
      expect(ids((await read().savedViews.list(member!.organizationId, member!.id, { page: 2, limit: 2 })).items)).toEqual([c!.id])
      expect(await read().savedViews.count(member!.organizationId, member!.id)).toBe(3)
    })

    test('a name is the member’s once: a second insert or a rename to it is a Conflict; another member may use it', async () => {
      const [member, colleague] = await twoMembers()
      const first = aView(member!, { name: 'Mine' })
      const second = aView(member!, { name: 'Overdue' })
      await write(async (r) => {
        await r.savedViews.insert(first)
        await r.savedViews.insert(second)
        await r.savedViews.insert(aView(colleague!, { name: 'Mine' }))
      })
      expect(await rejectionOf(write((r) => r.savedViews.insert(aView(member!, { name: 'Mine' }))))).toBeInstanceOf(ConflictError)
      expect(await rejectionOf(write((r) => r.savedViews.update({ ...second, name: 'Mine' })))).toBeInstanceOf(ConflictError)
      expect(await read().savedViews.count(member!.organizationId, member!.id)).toBe(2)
    })

    test('update saves the name, filters and updatedAt; another member can neither update nor delete it', async () => {
      const [member, colleague] = await twoMembers()
      const view = aView(member!)
      await write((r) => r.savedViews.insert(view))
      const renamed = { ...view, name: 'Renamed', filters: { assignedTo: member!.id }, updatedAt: minute(5) }
      await write((r) => r.savedViews.update(renamed))
      expect(await read().savedViews.findById(member!.organizationId, member!.id, view.id)).toEqual(renamed)

      await write((r) => r.savedViews.update({ ...renamed, memberId: colleague!.id, name: 'Taken over' }))
      expect((await read().savedViews.findById(member!.organizationId, member!.id, view.id))!.name).toBe('Renamed')
      expect(await write((r) => r.savedViews.delete(member!.organizationId, colleague!.id, view.id))).toBe(false)
      expect(await write((r) => r.savedViews.delete(member!.organizationId, member!.id, view.id))).toBe(true)
      expect(await read().savedViews.findById(member!.organizationId, member!.id, view.id)).toBeUndefined()
      expect(await write((r) => r.savedViews.delete(member!.organizationId, member!.id, view.id))).toBe(false)
    })
  })
}
