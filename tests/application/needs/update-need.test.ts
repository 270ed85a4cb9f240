import { beforeEach, describe, expect, test } from 'bun:test'
import type { CreateNeedInput } from '../../../src/application/needs/create-need'
import type { UpdateNeed } from '../../../src/application/needs/update-need'
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from '../../../src/domain/errors'
import type { Need } from '../../../src/domain/needs/need'
import { createWorld, type World } from '../../support/world'
import { failureOf, pathsOf } from '../failure-of'

const HOUR = 3_600_000

let world: World
let updateNeed: UpdateNeed
beforeEach(async () => {
  world = await createWorld()
  updateNeed = world.useCases.needs.update
})

const aNeedCreated = (input: Partial<CreateNeedInput> = {}): Promise<Need> =>
  world.useCases.needs.create.execute(world.admin, { partnerId: world.defaultPartner.id, ...input })
const stored = async (need: Need) => (await world.repositories.needs.findById(world.organizationId, need.id))!
/** The history after the creation entry. */
const changesOf = async (need: Need) =>
  (await world.repositories.needs.listChanges(world.organizationId, need.id, { page: 1, limit: 100 })).items.slice(1)

describe('UpdateNeed', () => {
  describe('status', () => {
    test('moves between open statuses and to RESOLVED', async () => {
      const need = await aNeedCreated()
      for (const status of ['IN_PROGRESS', 'PENDING_CLIENT', 'ESCALATED', 'NEW', 'RESOLVED'] as const) {
        expect((await updateNeed.execute(world.admin, need.id, { status })).status).toBe(status)
      }
      expect((await stored(need)).status).toBe('RESOLVED')
    })

    test('refuses every move out of RESOLVED but reopening, with a Conflict, and keeps the need as it was', async () => {
      const need = await aNeedCreated({ status: 'RESOLVED' })
      for (const status of ['NEW', 'PENDING_INTERNAL', 'PENDING_CLIENT', 'ESCALATED'] as const) {
        await failureOf(updateNeed.execute(world.admin, need.id, { status }), ConflictError)
      }
      expect(await stored(need)).toEqual(need)
      expect(await changesOf(need)).toEqual([])
    })

    test('reopens a RESOLVED need to IN_PROGRESS', async () => {
      const need = await aNeedCreated({ status: 'RESOLVED' })
      expect((await updateNeed.execute(world.admin, need.id, { status: 'IN_PROGRESS' })).status).toBe('IN_PROGRESS')
    })

    test('a refused transition saves none of the other changes sent with it', async () => {
      const need = await aNeedCreated({ status: 'RESOLVED' })
      const staff = await world.member('staff')
      await failureOf(updateNeed.execute(world.admin, need.id, { status: 'NEW', assignedTo: staff.memberId }), ConflictError)
      expect((await stored(need)).assignedTo).toBeUndefined()
    })

    test('setting the same status again is allowed and changes nothing', async () => {
      const need = await aNeedCreated({ status: 'RESOLVED' })
      world.clock.advance(60_000)
      expect(await updateNeed.execute(world.admin, need.id, { status: 'RESOLVED' })).toEqual(need)
      expect(await changesOf(need)).toEqual([])
    })
  })

  describe('history', () => {
    test('records a status change: who, when, from and to', async () => {
      const need = await aNeedCreated()
      world.clock.advance(5 * 60_000)
      const staff = await world.member('staff')
      await updateNeed.execute(staff, need.id, { status: 'IN_PROGRESS' })
      expect(await changesOf(need)).toEqual([
        expect.objectContaining({
          field: 'status',
          from: 'NEW',
          to: 'IN_PROGRESS',
          changedBy: staff.memberId,
          changedAt: world.clock.now(),
        }),
      ])
    })

    test('records assignee, partner and confidentiality changes, one entry each, and the due date the move recomputed', async () => {
      const need = await aNeedCreated()
      const staff = await world.member('staff')
      const pantry = await world.partner()
      world.clock.advance(60_000)
      await updateNeed.execute(world.admin, need.id, { assignedTo: staff.memberId, partnerId: pantry.id, isConfidential: true })
      const changes = await changesOf(need)
      expect(changes.map((c) => [c.field, c.from, c.to])).toEqual([
        ['assignedTo', undefined, staff.memberId],
        ['partnerId', world.defaultPartner.id, pantry.id],
        ['isConfidential', 'false', 'true'],
        ['dueDate', need.dueDate!.toISOString(), new Date(need.createdAt.getTime() + pantry.slaHours * HOUR).toISOString()],
      ])
      expect(changes.every((c) => c.changedBy === world.admin.memberId && c.changedAt.getTime() === world.clock.now().getTime())).toBe(true)
    })

    test('records a reassignment from one member to another', async () => {
      const first = await world.member('staff')
      const second = await world.member('staff')
      const need = await aNeedCreated({ assignedTo: first.memberId })
      await updateNeed.execute(world.admin, need.id, { assignedTo: second.memberId })
      expect((await changesOf(need)).map((c) => [c.field, c.from, c.to])).toEqual([['assignedTo', first.memberId, second.memberId]])
    })

    test('records nothing for a change of customFields alone, but saves it and its time', async () => {
      const need = await aNeedCreated({ customFields: { a: 1 } })
      world.clock.advance(60_000)
      const updated = await updateNeed.execute(world.admin, need.id, { customFields: { b: 2 } })
      expect(updated.customFields).toEqual({ b: 2 })
      expect(updated.updatedAt).toEqual(world.clock.now())
      expect(await stored(need)).toEqual(updated)
      expect(await changesOf(need)).toEqual([])
    })

    test('an update that changes nothing keeps updatedAt and adds no history', async () => {
      const need = await aNeedCreated({ customFields: { a: 1 } })
      world.clock.advance(60_000)
      await updateNeed.execute(world.admin, need.id, { partnerId: need.partnerId, customFields: { a: 1 }, isConfidential: false })
      expect((await stored(need)).updatedAt).toEqual(need.updatedAt)
      expect(await changesOf(need)).toEqual([])
    })

    test('bumps updatedAt on a tracked change', async () => {
      const need = await aNeedCreated()
      world.clock.advance(60_000)
      expect((await updateNeed.execute(world.admin, need.id, { status: 'ESCALATED' })).updatedAt).toEqual(world.clock.now())
    })
  })

  describe('references', () => {
    test('refuses an archived partner', async () => {
      const need = await aNeedCreated()
      const archived = await world.partner({ isArchived: true })
      const error = await failureOf(updateNeed.execute(world.admin, need.id, { partnerId: archived.id }), InvalidError)
      expect(pathsOf(error)).toEqual(['/partnerId'])
    })

    test('refuses a partner and an assignee of another organization', async () => {
      const need = await aNeedCreated()
      const other = await world.otherOrganization()
      const error = await failureOf(
        updateNeed.execute(world.admin, need.id, { partnerId: other.defaultPartner.id, assignedTo: other.admin.memberId }),
        InvalidError,
      )
      expect(pathsOf(error)).toEqual(['/assignedTo', '/partnerId'])
      expect(await stored(need)).toEqual(need)
    })

    test('validates the contact keys of new customFields', async () => {
      const need = await aNeedCreated()
      const error = await failureOf(updateNeed.execute(world.admin, need.id, { customFields: { email: 'nope' } }), InvalidError)
      expect(pathsOf(error)).toEqual(['/customFields/email'])
    })
  })

  describe('who may update', () => {
    test('a volunteer without needs_processor may not', async () => {
      const need = await aNeedCreated()
      const volunteer = await world.member('volunteer', { partnerId: world.defaultPartner.id, profiles: ['intake_staff'] })
      await failureOf(updateNeed.execute(volunteer, need.id, { status: 'IN_PROGRESS' }), ForbiddenError)
      expect((await stored(need)).status).toBe('NEW')
    })

    test('a volunteer with needs_processor may, on its own partner', async () => {
      const need = await aNeedCreated()
      const volunteer = await world.member('volunteer', { partnerId: world.defaultPartner.id, profiles: ['needs_processor'] })
      expect((await updateNeed.execute(volunteer, need.id, { status: 'IN_PROGRESS' })).status).toBe('IN_PROGRESS')
    })

    test("partner roles get Need not found for another partner's need", async () => {
      const need = await aNeedCreated()
      const pantry = await world.partner()
      const agent = await world.member('partner_agent', { partnerId: pantry.id })
      await failureOf(updateNeed.execute(agent, need.id, { status: 'IN_PROGRESS' }), NotFoundError)
    })

    test("nobody reaches another organization's need", async () => {
      const need = await aNeedCreated()
      const other = await world.otherOrganization()
      await failureOf(updateNeed.execute(other.admin, need.id, { status: 'IN_PROGRESS' }), NotFoundError)
      expect((await stored(need)).status).toBe('NEW')
    })

    test('takes the reference number in place of the id', async () => {
      const need = await aNeedCreated()
      expect((await updateNeed.execute(world.admin, 'req-1001', { status: 'ESCALATED' })).id).toBe(need.id)
    })
  })

  describe('confidential needs', () => {
    test('a caller who may not read them cannot replace their customFields', async () => {
      const need = await aNeedCreated({ isConfidential: true, customFields: { story: 'private' } })
      const staff = await world.member('staff')
      await failureOf(updateNeed.execute(staff, need.id, { customFields: {} }), ForbiddenError)
      expect((await stored(need)).customFields).toEqual({ story: 'private' })
    })

    test('a caller who may not read them cannot make them not confidential', async () => {
      const need = await aNeedCreated({ isConfidential: true, customFields: { story: 'private' } })
      const staff = await world.member('staff')
      await failureOf(updateNeed.execute(staff, need.id, { isConfidential: false }), ForbiddenError)
      expect((await stored(need)).isConfidential).toBe(true)
    })

    test('a caller who may not read them can still change status and assignee, and is answered with customFields emptied', async () => {
      const need = await aNeedCreated({ isConfidential: true, customFields: { story: 'private' } })
      const staff = await world.member('staff')
      const updated = await updateNeed.execute(staff, need.id, { status: 'IN_PROGRESS', assignedTo: staff.memberId, isConfidential: true })
      expect(updated).toMatchObject({ status: 'IN_PROGRESS', assignedTo: staff.memberId, customFields: {} })
      expect((await stored(need)).customFields).toEqual({ story: 'private' })
    })

    test('a caller who may read them can change their fields and lift the confidentiality', async () => {
      const need = await aNeedCreated({ isConfidential: true, customFields: { story: 'private' } })
      const reader = await world.member('staff', { profiles: ['pii_reader'] })
      const updated = await updateNeed.execute(reader, need.id, { customFields: { story: 'shared' }, isConfidential: false })
      expect(updated).toMatchObject({ customFields: { story: 'shared' }, isConfidential: false })
    })

    test('anyone who may update can make a need confidential', async () => {
      const need = await aNeedCreated({ customFields: { story: 'x' } })
      const staff = await world.member('staff')
      const updated = await updateNeed.execute(staff, need.id, { isConfidential: true })
      expect(updated).toMatchObject({ isConfidential: true, customFields: {} })
      expect((await stored(need)).customFields).toEqual({ story: 'x' })
    })
  })
})
