import { beforeEach, describe, expect, test } from 'bun:test'
import type { ListNeedInteractions } from '../../../src/application/needs/list-need-interactions'
import { NotFoundError } from '../../../src/domain/errors'
import type { Actor } from '../../../src/domain/auth/actor'
import type { Need } from '../../../src/domain/needs/need'
import { createWorld, type World } from '../../support/world'
import { failureOf } from '../failure-of'

let world: World
let useCase: ListNeedInteractions
beforeEach(async () => {
  world = await createWorld()
  useCase = world.useCases.needs.listInteractions
})

const FIRST_PAGE = { page: 1, limit: 25 }
/** The first page's interactions. */
const listInteractions = { execute: async (actor: Actor, needId: string) => (await useCase.execute(actor, needId, FIRST_PAGE)).items }

const aNeedCreated = (isConfidential = false): Promise<Need> =>
  world.useCases.needs.create.execute(world.admin, { partnerId: world.defaultPartner.id, isConfidential })

async function notesAdded(need: Need, ...contents: string[]) {
  for (const content of contents) {
    world.clock.advance(60_000)
    await world.useCases.needs.addNote.execute(world.admin, need.id, content)
  }
}

describe('ListNeedInteractions', () => {
  test('lists the notes of a need, oldest first', async () => {
    const need = await aNeedCreated()
    await notesAdded(need, 'first', 'second', 'third')
    expect((await listInteractions.execute(world.admin, need.id)).map((i) => i.content)).toEqual(['first', 'second', 'third'])
  })

  test('answers a page at a time, with the total', async () => {
    const need = await aNeedCreated()
    await notesAdded(need, 'first', 'second', 'third')
    const second = await useCase.execute(world.admin, need.id, { page: 2, limit: 2 })
    expect({ contents: second.items.map((i) => i.content), total: second.total }).toEqual({ contents: ['third'], total: 3 })
  })

  test('lists only the notes of that need', async () => {
    const need = await aNeedCreated()
    const another = await aNeedCreated()
    await notesAdded(need, 'mine')
    await notesAdded(another, 'theirs')
    expect((await listInteractions.execute(world.admin, need.id)).map((i) => i.content)).toEqual(['mine'])
  })

  test('hides the content of notes on a confidential need from callers who may not read it', async () => {
    const need = await aNeedCreated(true)
    await notesAdded(need, 'sensitive')
    const staff = await world.member('staff')
    const [note] = await listInteractions.execute(staff, need.id)
    expect(note).toMatchObject({ channel: 'note', needId: need.id })
    expect(note).not.toHaveProperty('content')
  })

  test('shows the content of notes on a confidential need to callers who may read it', async () => {
    const need = await aNeedCreated(true)
    await notesAdded(need, 'sensitive')
    const reader = await world.member('partner_agent', { partnerId: world.defaultPartner.id, profiles: ['pii_reader'] })
    expect((await listInteractions.execute(reader, need.id)).map((i) => i.content)).toEqual(['sensitive'])
  })

  test("answers Need not found for another organization's need and for another partner's need to partner roles", async () => {
    const need = await aNeedCreated()
    await notesAdded(need, 'x')
    const other = await world.otherOrganization()
    await failureOf(listInteractions.execute(other.admin, need.id), NotFoundError)
    const pantry = await world.partner()
    const volunteer = await world.member('volunteer', { partnerId: pantry.id })
    await failureOf(listInteractions.execute(volunteer, need.id), NotFoundError)
  })

  test('takes the reference number in place of the id', async () => {
    const need = await aNeedCreated()
    await notesAdded(need, 'x')
    expect((await listInteractions.execute(world.admin, need.referenceNumber.toLowerCase())).map((i) => i.needId)).toEqual([need.id])
  })
})
