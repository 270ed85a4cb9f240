import { beforeEach, describe, expect, test } from 'bun:test'
import { BulkUpdateNeeds } from '../../../src/application/needs/bulk-update-needs'
import type { UpdateNeed } from '../../../src/application/needs/update-need'
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from '../../../src/domain/errors'
import type { Need } from '../../../src/domain/needs/need'
import { createWorld, type World } from '../../support/world'
import { failureOf, pathsOf } from '../failure-of'

let world: World
beforeEach(async () => {
  world = await createWorld()
})

const aNeed = (status?: Need['status']) =>
  world.useCases.needs.create.execute(world.admin, { partnerId: world.defaultPartner.id, ...(status ? { status } : {}) })
const stored = async (need: Need) => (await world.repositories.needs.findById(world.organizationId, need.id))!
const bulk = () => world.useCases.needs.bulkUpdate

describe('BulkUpdateNeeds', () => {
  test('changes each need as UpdateNeed would alone, by id or reference number, with its history', async () => {
    const [first, second] = [await aNeed(), await aNeed()]
    const staff = await world.member('staff')
    const results = await bulk().execute(world.admin, { ids: [first.id, second.referenceNumber], set: { assignedTo: staff.memberId } })
    expect(results.map((r) => ('need' in r ? r.need.assignedTo : r.error))).toEqual([staff.memberId, staff.memberId])
    expect((await stored(second)).assignedTo).toBe(staff.memberId)
    const history = await world.repositories.needs.listChanges(world.organizationId, first.id, { page: 1, limit: 10 })
    expect(history.items.map((c) => c.field)).toContain('assignedTo')
  })

  test("answers each need's own error and goes on: a refused transition, a need not visible", async () => {
    const resolved = await aNeed('RESOLVED')
    const open = await aNeed()
    const other = await world.otherOrganization()
    const theirs = await other.useCases.needs.create.execute(other.admin, { partnerId: other.defaultPartner.id })
    const results = await bulk().execute(world.admin, { ids: [resolved.id, theirs.id, open.id], set: { status: 'ESCALATED' } })
    expect(results.map((r) => ('error' in r ? r.error.constructor : 200))).toEqual([ConflictError, NotFoundError, 200])
    expect((await stored(open)).status).toBe('ESCALATED')
    expect((await other.repositories.needs.findById(other.organizationId, theirs.id))!.status).toBe('NEW')
  })

  test("a partner role's need of another partner is not found, as none", async () => {
    const partnerA = await world.partner({ name: 'A' })
    const agent = await world.member('partner_agent', { partnerId: partnerA.id })
    const ofDefault = await aNeed()
    const [result] = await bulk().execute(agent, { ids: [ofDefault.id], set: { status: 'IN_PROGRESS' } })
    expect('error' in result! && result.error).toBeInstanceOf(NotFoundError)
  })

  test('refuses the whole request without needs:update, changing nothing', async () => {
    const need = await aNeed()
    const volunteer = await world.member('volunteer', { partnerId: world.defaultPartner.id })
    await failureOf(bulk().execute(volunteer, { ids: [need.id], set: { status: 'IN_PROGRESS' } }), ForbiddenError)
    expect((await stored(need)).status).toBe('NEW')
  })

  test('refuses no ids, more than 100, an id twice or an empty set as one InvalidError, changing nothing', async () => {
    const need = await aNeed()
    const set = { status: 'IN_PROGRESS' } as const
    const tooMany = Array.from({ length: 101 }, () => crypto.randomUUID())
    for (const ids of [[], tooMany, [need.id, need.id], ['']]) {
      expect(pathsOf(await failureOf(bulk().execute(world.admin, { ids, set }), InvalidError))).toEqual(['/ids'])
    }
    expect(pathsOf(await failureOf(bulk().execute(world.admin, { ids: [need.id], set: {} }), InvalidError))).toEqual(['/set'])
    expect((await stored(need)).status).toBe('NEW')
  })

  test('a failure that is no rule ends the run: the needs before it are changed, none after', async () => {
    const seen: string[] = []
    const failing = {
      execute: async (_actor: unknown, id: string) => {
        seen.push(id)
        if (id === 'second') throw new Error('database away')
        return {} as Need
      },
    } as unknown as UpdateNeed
    const run = new BulkUpdateNeeds(failing).execute(world.admin, { ids: ['first', 'second', 'third'], set: { status: 'NEW' } })
    await expect(run).rejects.toThrow('database away')
    expect(seen).toEqual(['first', 'second'])
  })
})
