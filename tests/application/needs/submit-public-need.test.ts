import { beforeEach, describe, expect, test } from 'bun:test'
import type { SubmitPublicNeed, PublicNeedInput } from '../../../src/application/needs/submit-public-need'
import { ForbiddenError, InvalidError } from '../../../src/domain/errors'
import { createWorld, type World } from '../../support/world'
import { failureOf, pathsOf } from '../failure-of'
import { seedConstituent } from './seed-constituent'

let world: World
let submit: SubmitPublicNeed
beforeEach(async () => {
  world = await createWorld()
  submit = world.useCases.needs.submitPublic
})

/** Partners are routed oldest first: each one added a minute after the previous. */
async function partnerAddedLater(overrides: Parameters<World['partner']>[0]) {
  world.clock.advance(60_000)
  return world.partner(overrides)
}

describe('SubmitPublicNeed', () => {
  describe('the organization by id or slug', () => {
    const slugOf = async (w: World) => (await w.repositories.organizations.findById(w.organizationId))!.slug

    test('takes the slug instead of the id, or both when they agree', async () => {
      const slug = await slugOf(world)
      expect((await submit.execute({ organizationSlug: slug, description: 'help' })).organizationId).toBe(world.organizationId)
      expect(
        (await submit.execute({ organizationId: world.organizationId, organizationSlug: slug, description: 'help' })).organizationId,
      ).toBe(world.organizationId)
    })

    test('refuses neither (naming /organizationId), an unknown slug, or a slug of another organization than the id (naming /organizationSlug)', async () => {
      const other = await world.otherOrganization()
      const cases: Array<[Omit<PublicNeedInput, 'description'>, string]> = [
        [{}, '/organizationId'],
        [{ organizationSlug: 'no-such-org' }, '/organizationSlug'],
        [{ organizationId: world.organizationId, organizationSlug: await slugOf(other) }, '/organizationSlug'],
      ]
      for (const [organization, path] of cases) {
        const error = await failureOf(submit.execute({ ...organization, description: 'help' }), InvalidError)
        expect(pathsOf(error)).toEqual([path])
      }
      expect((await world.repositories.needs.list(world.organizationId, {}, { page: 1, limit: 10 })).total).toBe(0)
    })
  })

  test("takes a post another site's page made only from an origin in the organization's formOrigins", async () => {
    const partnerSite = 'https://pantry.example.net'
    await world.useCases.organizations.updateSettings.execute(world.admin, { formOrigins: [partnerSite] })
    const other = await world.otherOrganization()
    const input = { organizationId: world.organizationId, description: 'help' }
    expect((await submit.execute(input, { fromOrigin: partnerSite })).organizationId).toBe(world.organizationId)
    for (const origin of ['https://evil.example', 'null', 'http://pantry.example.net'])
      await failureOf(submit.execute(input, { fromOrigin: origin }), ForbiddenError)
    await failureOf(
      submit.execute({ organizationId: other.organizationId, description: 'help' }, { fromOrigin: partnerSite }),
      ForbiddenError,
    )
    const needs = await world.repositories.needs.list(world.organizationId, {}, { page: 1, limit: 10 })
    expect(needs.total).toBe(1)
  })

  test('refuses an unknown organization, naming /organizationId', async () => {
    const error = await failureOf(submit.execute({ organizationId: crypto.randomUUID(), description: 'help' }), InvalidError)
    expect(pathsOf(error)).toEqual(['/organizationId'])
  })

  test('keeps the description in customFields.description, next to the other fields sent', async () => {
    const need = await submit.execute({
      organizationId: world.organizationId,
      description: 'We need food',
      customFields: { householdSize: 3 },
    })
    expect(need.customFields).toEqual({ householdSize: 3, description: 'We need food' })
  })

  test('the description wins over a customFields.description', async () => {
    const need = await submit.execute({
      organizationId: world.organizationId,
      description: 'the real one',
      customFields: { description: 'other' },
    })
    expect(need.customFields.description).toBe('the real one')
  })

  test('creates a NEW need with a reference number, a due date and no creator', async () => {
    const need = await submit.execute({ organizationId: world.organizationId, description: 'help' })
    expect(need).toMatchObject({ status: 'NEW', referenceNumber: 'REQ-1001', organizationId: world.organizationId, isConfidential: false })
    expect(need.createdBy).toBeUndefined()
    expect(need.dueDate!.getTime() - need.createdAt.getTime()).toBe(world.defaultPartner.slaHours * 3_600_000)
    const history = (await world.repositories.needs.listChanges(world.organizationId, need.id, { page: 1, limit: 100 })).items
    expect(history.map((c) => [c.field, c.to, c.changedBy])).toEqual([['status', 'NEW', undefined]])
  })

  test('shares the reference sequence with needs created by staff', async () => {
    await world.useCases.needs.create.execute(world.admin, { partnerId: world.defaultPartner.id })
    expect((await submit.execute({ organizationId: world.organizationId, description: 'help' })).referenceNumber).toBe('REQ-1002')
  })

  test('keeps the confidentiality asked for', async () => {
    expect((await submit.execute({ organizationId: world.organizationId, description: 'help', isConfidential: true })).isConfidential).toBe(
      true,
    )
  })

  describe('routing', () => {
    test('routes to the partner whose keyword is a word of the description, with its SLA', async () => {
      const food = await partnerAddedLater({ name: 'Food pantry', keywords: ['food', 'groceries'], slaHours: 6 })
      await partnerAddedLater({ name: 'Housing', keywords: ['rent'] })
      const need = await submit.execute({ organizationId: world.organizationId, description: 'No GROCERIES left, please help' })
      expect(need.partnerId).toBe(food.id)
      expect(need.dueDate!.getTime() - need.createdAt.getTime()).toBe(6 * 3_600_000)
    })

    test('takes the oldest matching partner first', async () => {
      const first = await partnerAddedLater({ name: 'First', keywords: ['food'] })
      await partnerAddedLater({ name: 'Second', keywords: ['food'] })
      expect((await submit.execute({ organizationId: world.organizationId, description: 'food' })).partnerId).toBe(first.id)
    })

    test('matches accents and multi-word keywords', async () => {
      const utilities = await partnerAddedLater({ name: 'Utilities', keywords: ['electric bill'] })
      const cafe = await partnerAddedLater({ name: 'Café', keywords: ['café'] })
      expect((await submit.execute({ organizationId: world.organizationId, description: 'My electric bill is late' })).partnerId).toBe(
        utilities.id,
      )
      expect((await submit.execute({ organizationId: world.organizationId, description: 'the CAFE' })).partnerId).toBe(cafe.id)
    })

    test('a Spanish request routes as its English words do, and the other way round', async () => {
      const food = await partnerAddedLater({ name: 'Food pantry', keywords: ['groceries'] })
      const housing = await partnerAddedLater({ name: 'Vivienda', keywords: ['renta'] })
      expect((await submit.execute({ organizationId: world.organizationId, description: 'Necesito comida' })).partnerId).toBe(food.id)
      expect((await submit.execute({ organizationId: world.organizationId, description: 'Help with the rent' })).partnerId).toBe(housing.id)
    })

    test('falls back to the default partner when no keyword matches', async () => {
      await partnerAddedLater({ name: 'Food pantry', keywords: ['food'] })
      expect((await submit.execute({ organizationId: world.organizationId, description: 'a ride to the clinic' })).partnerId).toBe(
        world.defaultPartner.id,
      )
    })

    test('skips archived partners', async () => {
      await partnerAddedLater({ name: 'Closed pantry', keywords: ['food'], isArchived: true })
      expect((await submit.execute({ organizationId: world.organizationId, description: 'food' })).partnerId).toBe(world.defaultPartner.id)
    })

    test('never routes to another organization’s partner', async () => {
      const other = await world.otherOrganization()
      await other.partner({ name: 'Their pantry', keywords: ['food'] })
      expect((await submit.execute({ organizationId: world.organizationId, description: 'food' })).partnerId).toBe(world.defaultPartner.id)
    })

    test('takes the partner sent instead of routing', async () => {
      await partnerAddedLater({ name: 'Food pantry', keywords: ['food'] })
      const chosen = await partnerAddedLater({ name: 'Chosen' })
      expect((await submit.execute({ organizationId: world.organizationId, description: 'food', partnerId: chosen.id })).partnerId).toBe(
        chosen.id,
      )
    })

    test('refuses a partner sent that is archived or of another organization', async () => {
      const archived = await partnerAddedLater({ isArchived: true })
      const other = await world.otherOrganization()
      for (const partnerId of [archived.id, other.defaultPartner.id]) {
        const error = await failureOf(
          submit.execute({ organizationId: world.organizationId, description: 'help', partnerId }),
          InvalidError,
        )
        expect(pathsOf(error)).toEqual(['/partnerId'])
      }
    })
  })

  test('validates contact keys of customFields like constituent fields', async () => {
    const error = await failureOf(
      submit.execute({
        organizationId: world.organizationId,
        description: 'help',
        customFields: { phone: '555123', addressZip: 'ABCDE' },
      }),
      InvalidError,
    )
    expect(pathsOf(error)).toEqual(['/customFields/addressZip', '/customFields/phone'])
  })

  test('refuses references to records of another organization', async () => {
    const other = await world.otherOrganization()
    const theirNeed = await submit.execute({ organizationId: other.organizationId, description: 'help' })
    const error = await failureOf(
      submit.execute({
        organizationId: world.organizationId,
        description: 'help',
        parentNeedId: theirNeed.id,
        constituentId: (await seedConstituent(other)).constituentId,
      }),
      InvalidError,
    )
    expect(pathsOf(error)).toEqual(['/constituentId', '/parentNeedId'])
  })

  test('answers the need without duplicateWarning, constituentId and householdId, which it still stores', async () => {
    const { constituentId, householdId } = await seedConstituent(world)
    const need = await submit.execute({ organizationId: world.organizationId, description: 'help', constituentId })
    expect(Object.keys(need)).not.toContain('constituentId')
    expect(Object.keys(need)).not.toContain('householdId')
    expect(Object.keys(need)).not.toContain('duplicateWarning')
    expect(await world.repositories.needs.findById(world.organizationId, need.id)).toMatchObject({ constituentId, householdId })
  })
})
