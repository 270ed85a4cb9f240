import { beforeEach, describe, expect, test } from 'bun:test'
import type { CreatePartner } from '../../../src/application/partners/create-partner'
import { ForbiddenError } from '../../../src/domain/errors'
import { createWorld, type World } from '../../support/world'
import { failureOf } from '../failure-of'

let world: World
let createPartner: CreatePartner
beforeEach(async () => {
  world = await createWorld()
  createPartner = world.useCases.partners.create
})

const partnersOf = (w: World) => w.repositories.partners.listAll(w.organizationId)

describe('CreatePartner', () => {
  test('adds a partner to the organization, not archived and not the default unless asked', async () => {
    const partner = await createPartner.execute(world.admin, {
      name: 'Pantry',
      slaHours: 24,
      keywords: ['food'],
      description: 'Tuesdays',
      website: 'https://pantry.example.org',
      publicCategoryName: 'Food',
    })
    expect(partner).toMatchObject({
      organizationId: world.organizationId,
      name: 'Pantry',
      slaHours: 24,
      keywords: ['food'],
      isArchived: false,
      isDefault: false,
      createdAt: world.clock.now(),
    })
    expect(await world.repositories.partners.findById(world.organizationId, partner.id)).toEqual(partner)
  })

  test('a new default partner takes the default over: the organization keeps exactly one', async () => {
    const partner = await createPartner.execute(world.admin, { name: 'New triage', slaHours: 24, isDefault: true })
    const defaults = (await partnersOf(world)).filter((p) => p.isDefault)
    expect(defaults.map((p) => p.id)).toEqual([partner.id])
  })

  test("leaves another organization's default alone", async () => {
    const other = await world.otherOrganization()
    await createPartner.execute(world.admin, { name: 'New triage', slaHours: 24, isDefault: true })
    expect((await partnersOf(other)).filter((p) => p.isDefault).map((p) => p.id)).toEqual([other.defaultPartner.id])
  })

  test('only an org_admin may create partners', async () => {
    for (const role of ['staff', 'partner_admin', 'partner_agent', 'volunteer'] as const) {
      const actor = await world.member(role, { partnerId: world.defaultPartner.id, profiles: ['intake_staff', 'duplicate_resolver'] })
      await failureOf(createPartner.execute(actor, { name: 'Pantry', slaHours: 24 }), ForbiddenError)
    }
    expect(await partnersOf(world)).toHaveLength(1)
  })
})
