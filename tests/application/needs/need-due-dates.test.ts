import { beforeEach, describe, expect, test } from 'bun:test'
import type { CreateNeedInput } from '../../../src/application/needs/create-need'
import type { UpdateNeed } from '../../../src/application/needs/update-need'
import { InvalidError } from '../../../src/domain/errors'
import type { Need } from '../../../src/domain/needs/need'
import { createWorld, type World } from '../../support/world'
import { failureOf, pathsOf } from '../failure-of'

// docs/api/needs.md "Needs": due dates (the partner's SLA or set by hand) and the resolution time.
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

describe('due date', () => {
  test('takes a due date set by hand, kept as set by hand; null is the SLA', async () => {
    const byHand = new Date(world.clock.now().getTime() + HOUR)
    expect(await aNeedCreated({ dueDate: byHand })).toMatchObject({ dueDate: byHand, dueDateSetByHand: true })
    const bySla = await aNeedCreated({ dueDate: null })
    expect(bySla.dueDateSetByHand).toBe(false)
    expect(bySla.dueDate!.getTime() - bySla.createdAt.getTime()).toBe(world.defaultPartner.slaHours * HOUR)
  })

  test('a need created RESOLVED is resolved at its creation', async () => {
    const need = await aNeedCreated({ status: 'RESOLVED' })
    expect(need.resolvedAt).toEqual(need.createdAt)
  })

  test("is recomputed from the creation time and the new partner's slaHours when an open need changes partner", async () => {
    const need = await aNeedCreated()
    const fast = await world.partner({ slaHours: 4 })
    world.clock.advance(10 * HOUR)
    const updated = await updateNeed.execute(world.admin, need.id, { partnerId: fast.id })
    expect(updated.dueDate).toEqual(new Date(need.createdAt.getTime() + 4 * HOUR))
    expect((await stored(need)).dueDate).toEqual(updated.dueDate)
  })

  test('is kept when a RESOLVED need changes partner', async () => {
    const need = await aNeedCreated({ status: 'RESOLVED' })
    const fast = await world.partner({ slaHours: 4 })
    const updated = await updateNeed.execute(world.admin, need.id, { partnerId: fast.id })
    expect(updated.partnerId).toBe(fast.id)
    expect(updated.dueDate).toEqual(need.dueDate)
  })

  test('is kept when the partner stays the same', async () => {
    const need = await aNeedCreated()
    expect((await updateNeed.execute(world.admin, need.id, { status: 'IN_PROGRESS' })).dueDate).toEqual(need.dueDate)
  })

  test('set by hand is stored, recorded in the history, and kept when the need changes partner', async () => {
    const need = await aNeedCreated()
    const byHand = new Date(need.createdAt.getTime() + 200 * HOUR)
    const set = await updateNeed.execute(world.admin, need.id, { dueDate: byHand })
    expect(set).toMatchObject({ dueDate: byHand, dueDateSetByHand: true })
    const fast = await world.partner({ slaHours: 4 })
    const moved = await updateNeed.execute(world.admin, need.id, { partnerId: fast.id })
    expect(moved).toMatchObject({ partnerId: fast.id, dueDate: byHand, dueDateSetByHand: true })
    expect(await stored(need)).toMatchObject({ dueDate: byHand, dueDateSetByHand: true })
    expect((await changesOf(need)).map(({ field, from, to }) => ({ field, from, to }))).toEqual([
      { field: 'dueDate', from: need.dueDate!.toISOString(), to: byHand.toISOString() },
      { field: 'partnerId', from: world.defaultPartner.id, to: fast.id },
    ])
  })

  test("null returns it to the current partner's SLA from the creation time, and a later move follows the new partner", async () => {
    const fast = await world.partner({ slaHours: 4 })
    const slow = await world.partner({ slaHours: 100 })
    const need = await aNeedCreated({ partnerId: fast.id, dueDate: new Date(world.clock.now().getTime() + 1000 * HOUR) })
    expect(need.dueDateSetByHand).toBe(true)
    world.clock.advance(10 * HOUR)
    const reset = await updateNeed.execute(world.admin, need.id, { dueDate: null })
    expect(reset).toMatchObject({ dueDate: new Date(need.createdAt.getTime() + 4 * HOUR), dueDateSetByHand: false })
    const moved = await updateNeed.execute(world.admin, need.id, { partnerId: slow.id })
    expect(moved.dueDate).toEqual(new Date(need.createdAt.getTime() + 100 * HOUR))
  })

  test('setting by hand the date the SLA gave marks it as set by hand, without a history entry', async () => {
    const need = await aNeedCreated()
    const updated = await updateNeed.execute(world.admin, need.id, { dueDate: need.dueDate! })
    expect(updated).toMatchObject({ dueDate: need.dueDate, dueDateSetByHand: true })
    expect(await changesOf(need)).toEqual([])
  })

  test('refuses a date that is no date, naming /dueDate', async () => {
    const need = await aNeedCreated()
    const error = await failureOf(updateNeed.execute(world.admin, need.id, { dueDate: new Date('not a date') }), InvalidError)
    expect(pathsOf(error)).toEqual(['/dueDate'])
  })
})

describe('resolution time', () => {
  test('is set when the need is resolved, kept while it stays resolved, and cleared when it is reopened', async () => {
    const need = await aNeedCreated()
    expect(need.resolvedAt).toBeUndefined()
    world.clock.advance(5 * HOUR)
    const resolvedAt = world.clock.now()
    expect((await updateNeed.execute(world.admin, need.id, { status: 'RESOLVED' })).resolvedAt).toEqual(resolvedAt)
    world.clock.advance(HOUR)
    const staff = await world.member('staff')
    expect((await updateNeed.execute(world.admin, need.id, { assignedTo: staff.memberId })).resolvedAt).toEqual(resolvedAt)
    const reopened = await updateNeed.execute(world.admin, need.id, { status: 'IN_PROGRESS' })
    expect(reopened.resolvedAt).toBeUndefined()
    expect((await stored(need)).resolvedAt).toBeUndefined()
  })
})
