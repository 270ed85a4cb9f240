import { beforeEach, describe, expect, test } from 'bun:test'
import { ConflictError, InvalidError, NotFoundError } from '../../../src/domain/errors'
import { MAX_SAVED_VIEWS } from '../../../src/domain/members/saved-view'
import type { Actor } from '../../../src/domain/auth/actor'
import { createWorld, type World } from '../../support/world'
import { failureOf, pathsOf } from '../failure-of'

let world: World
let member: Actor
beforeEach(async () => {
  world = await createWorld()
  member = await world.member('staff')
})

const ALL = { page: 1, limit: 100 }
const views = () => world.useCases.members
const create = (actor: Actor, name: string, filters = {}) => views().createView.execute(actor, { name, filters })

describe('saved views', () => {
  test('creates a view with its name trimmed and its filters, and lists the member its own, oldest first', async () => {
    const first = await create(member, '  Mine overdue ', { assignedTo: member.memberId, overdue: true, sort: 'dueDate' })
    world.clock.advance(1000)
    const second = await create(member, 'Rent', { q: 'rent', status: ['NEW', 'ESCALATED'] })
    expect(first).toMatchObject({ name: 'Mine overdue', filters: { assignedTo: member.memberId, overdue: true, sort: 'dueDate' } })
    const listed = await views().listViews.execute(member, ALL)
    expect(listed.items.map((v) => v.id)).toEqual([first.id, second.id])
    expect(listed.total).toBe(2)
  })

  test('no one else sees, changes or deletes a member’s view: another member of the organization, or of another', async () => {
    const view = await create(member, 'Mine')
    const colleague = await world.member('staff')
    const stranger = (await world.otherOrganization()).admin
    for (const other of [colleague, stranger, world.admin]) {
      expect((await views().listViews.execute(other, ALL)).items).toEqual([])
      await failureOf(views().updateView.execute(other, view.id, { name: 'Taken' }), NotFoundError)
      await failureOf(views().deleteView.execute(other, view.id), NotFoundError)
    }
    expect((await views().listViews.execute(member, ALL)).items).toEqual([view])
  })

  test('a name is the member’s once, on creation and on a rename; another member may use it', async () => {
    await create(member, 'Mine')
    const other = await create(member, 'Other')
    await failureOf(create(member, ' Mine '), ConflictError)
    await failureOf(views().updateView.execute(member, other.id, { name: 'Mine' }), ConflictError)
    expect((await create(await world.member('staff'), 'Mine')).name).toBe('Mine')
  })

  test('renames, replaces the filters whole, and an update that changes nothing keeps updatedAt', async () => {
    const view = await create(member, 'Mine', { overdue: true, q: 'rent' })
    world.clock.advance(60_000)
    const same = await views().updateView.execute(member, view.id, { name: 'Mine' })
    expect(same).toEqual(view)
    const renamed = await views().updateView.execute(member, view.id, { name: 'Renamed', filters: { status: ['NEW'] } })
    expect(renamed).toMatchObject({ name: 'Renamed', filters: { status: ['NEW'] }, updatedAt: world.clock.now() })
    expect((await views().listViews.execute(member, ALL)).items).toEqual([renamed])
  })

  test(`keeps at most ${MAX_SAVED_VIEWS} views a member`, async () => {
    for (let n = 0; n < MAX_SAVED_VIEWS; n++) await create(member, `View ${n}`)
    await failureOf(create(member, 'One more'), ConflictError)
    const [first] = (await views().listViews.execute(member, { page: 1, limit: 1 })).items
    await views().deleteView.execute(member, first!.id)
    expect((await create(member, 'One more')).name).toBe('One more')
  })

  test('refuses names of 0 or over 60 characters and filters the needs list does not take, field by field', async () => {
    for (const name of ['', '   ', 'x'.repeat(61)]) expect(pathsOf(await failureOf(create(member, name), InvalidError))).toEqual(['/name'])
    const bad = {
      status: [],
      partnerId: 'p',
      overdue: 'yes',
      dueBefore: 'soon',
      resolvedFrom: 'May',
      q: 'x'.repeat(201),
      sort: 'name',
      colour: 'red',
    }
    expect(pathsOf(await failureOf(create(member, 'Bad', bad), InvalidError))).toEqual(
      [
        '/filters/colour',
        '/filters/dueBefore',
        '/filters/overdue',
        '/filters/partnerId',
        '/filters/q',
        '/filters/resolvedFrom',
        '/filters/sort',
        '/filters/status',
      ].sort(),
    )
    expect(pathsOf(await failureOf(create(member, 'Bad', { status: ['NEW', 'NEW'] }), InvalidError))).toEqual(['/filters/status'])
    expect((await views().listViews.execute(member, ALL)).total).toBe(0)
  })

  test('a deactivated member’s views are kept, and theirs again once reactivated', async () => {
    const view = await create(member, 'Mine')
    await world.useCases.members.update.execute(world.admin, member.memberId, { active: false })
    await world.useCases.members.update.execute(world.admin, member.memberId, { active: true })
    expect((await views().listViews.execute(member, ALL)).items).toEqual([view])
  })
})
