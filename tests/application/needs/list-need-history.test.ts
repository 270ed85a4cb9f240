import { beforeEach, describe, expect, test } from 'bun:test'
import { NotFoundError } from '../../../src/domain/errors'
import type { Need } from '../../../src/domain/needs/need'
import { createWorld, type World } from '../../support/world'
import { failureOf } from '../failure-of'

// docs/api/needs.md "Needs": the history of a need, with the visibility of the need itself.
let world: World
beforeEach(async () => {
  world = await createWorld()
})

const ALL = { page: 1, limit: 100 }
const history = (need: Pick<Need, 'id'>, actor = world.admin, page = ALL) => world.useCases.needs.listHistory.execute(actor, need.id, page)
const aNeedCreated = (partnerId = world.defaultPartner.id) => world.useCases.needs.create.execute(world.admin, { partnerId })
const updated = (need: Need, changes: Parameters<World['useCases']['needs']['update']['execute']>[2]) => {
  world.clock.advance(60_000)
  return world.useCases.needs.update.execute(world.admin, need.id, changes)
}

describe('ListNeedHistory', () => {
  test('lists the changes oldest first: the first status, then every change with who and when', async () => {
    const need = await aNeedCreated()
    await updated(need, { status: 'IN_PROGRESS' })
    await updated(need, { status: 'RESOLVED' })

    const { items, total } = await history(need)
    expect(total).toBe(3)
    expect(items.map(({ field, from, to, changedBy }) => ({ field, from, to, changedBy }))).toEqual([
      { field: 'status', from: undefined, to: 'NEW', changedBy: world.admin.memberId },
      { field: 'status', from: 'NEW', to: 'IN_PROGRESS', changedBy: world.admin.memberId },
      { field: 'status', from: 'IN_PROGRESS', to: 'RESOLVED', changedBy: world.admin.memberId },
    ])
    expect(items.map((c) => c.changedAt.getTime() - need.createdAt.getTime())).toEqual([0, 60_000, 120_000])
  })

  test('takes the reference number as well as the id', async () => {
    const need = await aNeedCreated()
    await updated(need, { status: 'ESCALATED' })
    const byReference = await world.useCases.needs.listHistory.execute(world.admin, need.referenceNumber.toLowerCase(), ALL)
    expect(byReference).toEqual(await history(need))
  })

  test('pages the changes', async () => {
    const need = await aNeedCreated()
    for (const status of ['IN_PROGRESS', 'PENDING_CLIENT', 'ESCALATED'] as const) await updated(need, { status })
    const pages = await Promise.all([1, 2].map((page) => history(need, world.admin, { page, limit: 3 })))
    expect(pages.map((p) => [p.items.map((c) => c.to), p.total])).toEqual([
      [['NEW', 'IN_PROGRESS', 'PENDING_CLIENT'], 4],
      [['ESCALATED'], 4],
    ])
  })

  test("another partner's need is not found for partner roles, as GET /api/needs/{id} is; every role may read its own", async () => {
    const partnerA = await world.partner()
    const partnerB = await world.partner()
    const ofB = await aNeedCreated(partnerB.id)
    const ofA = await aNeedCreated(partnerA.id)
    for (const role of ['partner_admin', 'partner_agent', 'volunteer'] as const) {
      const actor = await world.member(role, { partnerId: partnerA.id })
      await failureOf(history(ofB, actor), NotFoundError)
      expect((await history(ofA, actor)).total).toBe(1)
    }
  })

  test("another organization's need is not found", async () => {
    const need = await aNeedCreated()
    const other = await world.otherOrganization()
    await failureOf(history(need, other.admin), NotFoundError)
  })
})
