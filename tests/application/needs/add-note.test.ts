import { beforeEach, describe, expect, test } from 'bun:test'
import type { AddNote } from '../../../src/application/needs/add-note'
import { NotFoundError } from '../../../src/domain/errors'
import type { Need } from '../../../src/domain/needs/need'
import type { InteractionView } from '../../../src/domain/needs/redaction'
import { createWorld, type World } from '../../support/world'
import { failureOf } from '../failure-of'

let world: World
let addNote: AddNote
let need: Need
beforeEach(async () => {
  world = await createWorld()
  addNote = world.useCases.needs.addNote
  need = await world.useCases.needs.create.execute(world.admin, { partnerId: world.defaultPartner.id })
})

describe('AddNote', () => {
  test("records a note on the need, with the need's partner, the time and the content", async () => {
    world.clock.advance(60_000)
    const note = await addNote.execute(world.admin, need.id, 'Called back, left a message')
    expect(note).toMatchObject({
      organizationId: world.organizationId,
      partnerId: world.defaultPartner.id,
      needId: need.id,
      channel: 'note',
      content: 'Called back, left a message',
      createdAt: world.clock.now(),
    })
    const listed: InteractionView[] = (
      await world.repositories.interactions.listByNeed(world.organizationId, need.id, { page: 1, limit: 100 })
    ).items
    expect(listed).toEqual([note])
  })

  test("signs the note with the author's full name, or the email when there is none", async () => {
    const named = await world.member('staff', { fullName: 'Ana López' })
    const unnamed = await world.member('staff', { email: 'sam@example.org' })
    expect((await addNote.execute(named, need.id, 'a')).senderIdentifier).toBe('Ana López')
    expect((await addNote.execute(unnamed, need.id, 'b')).senderIdentifier).toBe('sam@example.org')
  })

  test('every role may add notes, a volunteer without profiles included', async () => {
    const volunteer = await world.member('volunteer', { partnerId: world.defaultPartner.id })
    expect((await addNote.execute(volunteer, need.id, 'Dropped off a box')).content).toBe('Dropped off a box')
  })

  test('takes the reference number in place of the id', async () => {
    expect((await addNote.execute(world.admin, 'req-1001', 'x')).needId).toBe(need.id)
  })

  test("answers Need not found for another organization's need, and for another partner's need to partner roles", async () => {
    const other = await world.otherOrganization()
    await failureOf(addNote.execute(other.admin, need.id, 'x'), NotFoundError)
    const pantry = await world.partner()
    const agent = await world.member('partner_agent', { partnerId: pantry.id })
    await failureOf(addNote.execute(agent, need.id, 'x'), NotFoundError)
    await failureOf(addNote.execute(world.admin, crypto.randomUUID(), 'x'), NotFoundError)
    expect((await world.repositories.interactions.listByNeed(world.organizationId, need.id, { page: 1, limit: 100 })).items).toEqual([])
  })
})
