import { beforeEach, describe, expect, test } from 'bun:test'
import type { UpdateOrganizationSettingsInput } from '../../../src/application/organizations/organization-settings'
import { PORTS } from '../../../src/main/container'
import { createWorld, type World } from '../../support/world'
import { ALL, needFor, register, storedConstituent, storedNeed } from '../constituents/steps'

// docs/privacy.md "Retention": the worker erases idle people and clears resolved needs' text, once a day.
const DAY = 86_400_000
let world: World

beforeEach(async () => {
  world = await createWorld()
})

async function retain(settings: UpdateOrganizationSettingsInput) {
  await world.useCases.organizations.updateSettings.execute(world.admin, settings)
}
const apply = async () => (await world.useCases.operations.applyRetention.execute()).runs
const runsRecorded = async () =>
  (await world.useCases.audit.list.execute(world.admin, { action: 'apply_retention' }, ALL)).items.map((e) => e.counts)

describe('ApplyRetention', () => {
  test('erases the people with no need activity for constituentRetentionDays, as an erasure would', async () => {
    await retain({ constituentRetentionDays: 30 })
    const idle = await register(world, { firstName: 'Idle', phone: '+15039871234' })
    const withOldNeed = await register(world, { firstName: 'Old' })
    const oldNeed = await needFor(world, { constituentId: withOldNeed.id, customFields: { phone: '+15039870000', story: 'rent' } })
    const withRecentNeed = await register(world, { firstName: 'Busy' })
    const recentNeedOf = await needFor(world, { constituentId: withRecentNeed.id })
    world.clock.advance(20 * DAY)
    await world.useCases.needs.update.execute(world.admin, recentNeedOf.id, { status: 'IN_PROGRESS' })
    world.clock.advance(11 * DAY)
    const recent = await register(world, { firstName: 'New' })

    expect(await apply()).toEqual([{ organizationId: world.organizationId, constituentsErased: 2, needTextsCleared: 0 }])

    for (const person of [idle, withOldNeed])
      expect(await storedConstituent(world, person.id)).toMatchObject({ erasedAt: world.clock.now() })
    expect((await storedConstituent(world, idle.id))!.phone).toBeUndefined()
    expect((await storedNeed(world, oldNeed.id))!.customFields).toEqual({ story: 'rent' })
    for (const person of [withRecentNeed, recent]) expect(await storedConstituent(world, person.id)).toEqual(person)
    const erasures = await world.useCases.audit.list.execute(world.admin, { action: 'erase' }, ALL)
    expect(erasures.items.map((e) => [e.recordId, e.memberId])).toEqual(
      expect.arrayContaining([
        [idle.id, undefined],
        [withOldNeed.id, undefined],
      ]),
    )
  })

  test('clears the customFields, notes and texts of needs resolved and unchanged for needTextRetentionDays, and no other', async () => {
    await retain({ needTextRetentionDays: 30 })
    const resolved = await needFor(world, { customFields: { story: 'lost her job' } })
    await world.useCases.needs.addNote.execute(world.admin, resolved.id, 'Her landlord is Mr. Grant')
    await world.useCases.needs.update.execute(world.admin, resolved.id, { status: 'RESOLVED' })
    const open = await needFor(world, { customFields: { story: 'still waiting' } })
    world.clock.advance(31 * DAY)
    const recentlyResolved = await needFor(world, { customFields: { story: 'just done' } })
    await world.useCases.needs.update.execute(world.admin, recentlyResolved.id, { status: 'RESOLVED' })

    expect(await apply()).toEqual([{ organizationId: world.organizationId, constituentsErased: 0, needTextsCleared: 1 }])

    expect(await storedNeed(world, resolved.id)).toMatchObject({ status: 'RESOLVED', customFields: {} })
    const notes = await world.useCases.needs.listInteractions.execute(world.admin, resolved.id, ALL)
    expect(notes.items.map((note) => note.content)).toEqual([undefined])
    expect((await storedNeed(world, open.id))!.customFields).toEqual({ story: 'still waiting' })
    expect((await storedNeed(world, recentlyResolved.id))!.customFields).toEqual({ story: 'just done' })
  })

  test('runs once a day per organization, each run recorded with its counts', async () => {
    await retain({ constituentRetentionDays: 30 })
    await register(world, { firstName: 'Idle' })
    world.clock.advance(31 * DAY)

    expect(await apply()).toHaveLength(1)
    world.clock.advance(DAY - 1)
    expect(await apply()).toEqual([])
    world.clock.advance(1)
    expect(await apply()).toEqual([{ organizationId: world.organizationId, constituentsErased: 0, needTextsCleared: 0 }])
    expect(await runsRecorded()).toEqual([
      { constituentsErased: 0, needTextsCleared: 0 },
      { constituentsErased: 1, needTextsCleared: 0 },
    ])
  })

  test('keeps everyone of an organization that chose no retention, and of every other organization', async () => {
    const other = await world.otherOrganization()
    await other.useCases.organizations.updateSettings.execute(other.admin, { constituentRetentionDays: 30 })
    const kept = await register(world, { firstName: 'Kept' })
    world.clock.advance(3650 * DAY)

    expect((await apply()).map((run) => run.organizationId)).toEqual([other.organizationId])
    expect(await storedConstituent(world, kept.id)).toEqual(kept)
    expect(await runsRecorded()).toEqual([])
  })

  test('a retention stopped (null) erases no one more', async () => {
    await retain({ constituentRetentionDays: 30 })
    await retain({ constituentRetentionDays: null })
    const kept = await register(world, { firstName: 'Kept' })
    world.clock.advance(31 * DAY)
    expect(await apply()).toEqual([])
    expect(await storedConstituent(world, kept.id)).toEqual(kept)
    const organization = await world.container.get(PORTS.repositories).organizations.findById(world.organizationId)
    expect(organization).not.toHaveProperty('constituentRetentionDays')
  })
})
