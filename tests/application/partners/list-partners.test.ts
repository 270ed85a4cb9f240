import { beforeEach, describe, expect, test } from 'bun:test'
import type { ListPartners } from '../../../src/application/partners/list-partners'
import { createWorld, type World } from '../../support/world'

let world: World
let listPartners: ListPartners
beforeEach(async () => {
  world = await createWorld()
  listPartners = world.useCases.partners.list
})

async function partnersAdded(...names: string[]) {
  for (const name of names) {
    world.clock.advance(60_000)
    await world.partner({ name, isArchived: name.startsWith('Archived') })
  }
}

describe('ListPartners', () => {
  test('lists every partner of the organization, archived ones included, newest first', async () => {
    await partnersAdded('Pantry', 'Archived shelter', 'Clinic')
    const page = await listPartners.execute(world.admin, { page: 1, limit: 25 })
    expect(page.items.map((p) => p.name)).toEqual(['Clinic', 'Archived shelter', 'Pantry', world.defaultPartner.name])
    expect(page.total).toBe(4)
  })

  test('pages the list and tells the total', async () => {
    await partnersAdded('A', 'B', 'C', 'D')
    const second = await listPartners.execute(world.admin, { page: 2, limit: 2 })
    expect(second.items.map((p) => p.name)).toEqual(['B', 'A'])
    expect(second.total).toBe(5)
    expect((await listPartners.execute(world.admin, { page: 4, limit: 2 })).items).toEqual([])
  })

  test('every role may list partners, and sees the whole organization', async () => {
    await partnersAdded('Pantry')
    for (const role of ['staff', 'partner_admin', 'partner_agent', 'volunteer'] as const) {
      const actor = await world.member(role, { partnerId: world.defaultPartner.id })
      expect((await listPartners.execute(actor, { page: 1, limit: 25 })).total).toBe(2)
    }
  })

  test("never lists another organization's partners", async () => {
    const other = await world.otherOrganization()
    await other.partner({ name: 'Theirs' })
    const page = await listPartners.execute(world.admin, { page: 1, limit: 25 })
    expect(page.items.map((p) => p.id)).toEqual([world.defaultPartner.id])
  })
})
