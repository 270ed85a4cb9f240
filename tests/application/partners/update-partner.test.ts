import { beforeEach, describe, expect, test } from 'bun:test'
import type { UpdatePartner } from '../../../src/application/partners/update-partner'
import { ConflictError, ForbiddenError, NotFoundError } from '../../../src/domain/errors'
import type { Partner } from '../../../src/domain/partners/partner'
import { createWorld, type World } from '../../support/world'
import { failureOf } from '../failure-of'

let world: World
let updatePartner: UpdatePartner
let pantry: Partner
beforeEach(async () => {
  world = await createWorld()
  updatePartner = world.useCases.partners.update
  pantry = await world.partner({ name: 'Pantry', slaHours: 48 })
})

const stored = async (partner: Partner) => (await world.repositories.partners.findById(world.organizationId, partner.id))!
const defaultIds = async () => (await world.repositories.partners.listAll(world.organizationId)).filter((p) => p.isDefault).map((p) => p.id)

describe('UpdatePartner', () => {
  test('changes the fields sent and keeps the others', async () => {
    const updated = await updatePartner.execute(world.admin, pantry.id, {
      slaHours: 12,
      keywords: ['food', 'groceries'],
      website: 'https://p.example.org',
    })
    expect(updated).toEqual({ ...pantry, slaHours: 12, keywords: ['food', 'groceries'], website: 'https://p.example.org' })
    expect(await stored(pantry)).toEqual(updated)
  })

  test('archives a partner that is not the default, and brings it back', async () => {
    expect((await updatePartner.execute(world.admin, pantry.id, { isArchived: true })).isArchived).toBe(true)
    expect((await updatePartner.execute(world.admin, pantry.id, { isArchived: false })).isArchived).toBe(false)
  })

  describe('the default partner', () => {
    test('moves: making a partner the default clears it on the previous one', async () => {
      await updatePartner.execute(world.admin, pantry.id, { isDefault: true })
      expect(await defaultIds()).toEqual([pantry.id])
      expect((await stored(world.defaultPartner)).isDefault).toBe(false)
    })

    test('cannot be archived (Conflict), and stays as it was', async () => {
      await failureOf(updatePartner.execute(world.admin, world.defaultPartner.id, { isArchived: true }), ConflictError)
      expect(await stored(world.defaultPartner)).toEqual(world.defaultPartner)
    })

    test('cannot be unset (Conflict): another partner must be made the default instead', async () => {
      await failureOf(updatePartner.execute(world.admin, world.defaultPartner.id, { isDefault: false }), ConflictError)
      expect(await defaultIds()).toEqual([world.defaultPartner.id])
    })

    test('an archived partner cannot become the default in the same update (Conflict)', async () => {
      await failureOf(updatePartner.execute(world.admin, pantry.id, { isDefault: true, isArchived: true }), ConflictError)
      expect(await defaultIds()).toEqual([world.defaultPartner.id])
    })

    test('an archived partner cannot be made the default (Conflict)', async () => {
      await updatePartner.execute(world.admin, pantry.id, { isArchived: true })
      await failureOf(updatePartner.execute(world.admin, pantry.id, { isDefault: true }), ConflictError)
      expect(await defaultIds()).toEqual([world.defaultPartner.id])
    })

    test('the former default can be archived once the default has moved', async () => {
      await updatePartner.execute(world.admin, pantry.id, { isDefault: true })
      expect((await updatePartner.execute(world.admin, world.defaultPartner.id, { isArchived: true })).isArchived).toBe(true)
    })
  })

  describe('partner_admin', () => {
    test("may update its own partner's details", async () => {
      const partnerAdmin = await world.member('partner_admin', { partnerId: pantry.id })
      expect((await updatePartner.execute(partnerAdmin, pantry.id, { name: 'Pantry North', slaHours: 24 })).name).toBe('Pantry North')
    })

    test('may send isDefault and isArchived unchanged', async () => {
      const partnerAdmin = await world.member('partner_admin', { partnerId: pantry.id })
      expect((await updatePartner.execute(partnerAdmin, pantry.id, { name: 'P', isDefault: false, isArchived: false })).name).toBe('P')
    })

    test('may not update another partner (Forbidden)', async () => {
      const partnerAdmin = await world.member('partner_admin', { partnerId: pantry.id })
      await failureOf(updatePartner.execute(partnerAdmin, world.defaultPartner.id, { name: 'Mine now' }), ForbiddenError)
      expect((await stored(world.defaultPartner)).name).toBe(world.defaultPartner.name)
    })

    test('may not archive its own partner or make it the default (Forbidden)', async () => {
      const partnerAdmin = await world.member('partner_admin', { partnerId: pantry.id })
      await failureOf(updatePartner.execute(partnerAdmin, pantry.id, { isArchived: true }), ForbiddenError)
      await failureOf(updatePartner.execute(partnerAdmin, pantry.id, { isDefault: true }), ForbiddenError)
      expect(await stored(pantry)).toEqual(pantry)
    })
  })

  test('staff, partner_agent and volunteer may not update partners (Forbidden)', async () => {
    for (const role of ['staff', 'partner_agent', 'volunteer'] as const) {
      const actor = await world.member(role, { partnerId: pantry.id, profiles: ['needs_processor', 'intake_staff'] })
      await failureOf(updatePartner.execute(actor, pantry.id, { name: 'x' }), ForbiddenError)
    }
    expect(await stored(pantry)).toEqual(pantry)
  })

  test("answers Partner not found for another organization's partner and for an unknown id", async () => {
    const other = await world.otherOrganization()
    const error = await failureOf(updatePartner.execute(world.admin, other.defaultPartner.id, { name: 'Taken over' }), NotFoundError)
    expect(error.message).toBe('Partner not found')
    await failureOf(updatePartner.execute(world.admin, crypto.randomUUID(), { name: 'x' }), NotFoundError)
    expect((await other.repositories.partners.findById(other.organizationId, other.defaultPartner.id))!.name).toBe(
      other.defaultPartner.name,
    )
  })
})
