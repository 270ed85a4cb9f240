import { beforeEach, describe, expect, spyOn, test } from 'bun:test'
import { EXPORT_BATCH_SIZE } from '../../../src/application/keyset-batches'
import type { ExportedNeed } from '../../../src/application/needs/export-needs'
import type { Need } from '../../../src/domain/needs/need'
import { ForbiddenError } from '../../../src/domain/errors'
import { PORTS } from '../../../src/main/container'
import { aConstituent, aNeed } from '../../support/builders'
import { createWorld, type World } from '../../support/world'
import { failureOf } from '../failure-of'

// docs/api/exports-import.md "Exports"
let world: World
beforeEach(async () => {
  world = await createWorld()
})

async function insertNeeds(needs: Need[]) {
  await world.container.get(PORTS.unitOfWork).run(async (r) => {
    for (const need of needs) await r.needs.insert(need)
  })
}

/** `n` needs of `partnerId`, a second apart, the newest last. */
function needsOf(partnerId: string, n: number, from = 0): Need[] {
  return Array.from({ length: n }, (_, i) =>
    aNeed({ organizationId: world.organizationId, partnerId, createdAt: new Date(Date.UTC(2026, 0, 1) + (from + i) * 1000) }),
  )
}

async function exported(batches: AsyncIterable<ExportedNeed[]>): Promise<ExportedNeed[][]> {
  const all: ExportedNeed[][] = []
  for await (const batch of batches) all.push(batch)
  return all
}

describe('ExportNeeds', () => {
  test('answers every need of the filter, newest first, in batches read only as they are consumed', async () => {
    const needs = needsOf(world.defaultPartner.id, EXPORT_BATCH_SIZE * 2 + 3)
    await insertNeeds(needs)
    const reads = spyOn(world.repositories.needs, 'listAfter')

    const iterator = (await world.useCases.needs.export.execute(world.admin, {}))[Symbol.asyncIterator]()
    expect(reads).toHaveBeenCalledTimes(0)
    const first = await iterator.next()
    expect(reads).toHaveBeenCalledTimes(1)
    expect(first.value).toHaveLength(EXPORT_BATCH_SIZE)
    const rest: Need[][] = []
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(next.value)
    expect(reads).toHaveBeenCalledTimes(3)
    expect([first.value as Need[], ...rest].flat().map((n) => n.id)).toEqual(needs.map((n) => n.id).reverse())
  })

  test('names each id: the partner, the assignee (kept across batches) and the person on file, to a reader of constituents only', async () => {
    const pantry = await world.partner({ name: 'Pantry' })
    const caseworker = await world.member('staff', { fullName: 'Sam Caseworker' })
    const person = aConstituent({
      organizationId: world.organizationId,
      householdId: crypto.randomUUID(),
      firstName: 'Rosa',
      lastName: 'Named',
    })
    await world.container.get(PORTS.unitOfWork).run((r) => r.constituents.insert(person))
    const needs = needsOf(pantry.id, EXPORT_BATCH_SIZE + 1).map((n) => ({
      ...n,
      assignedTo: caseworker.memberId,
      constituentId: person.id,
    }))
    await insertNeeds(needs)
    const lookups = spyOn(world.repositories.members, 'findById')

    const rows = (await exported(await world.useCases.needs.export.execute(world.admin, {}))).flat()
    expect(new Set(rows.map((n) => `${n.partnerName}|${n.assigneeName}|${n.constituentName}`))).toEqual(
      new Set(['Pantry|Sam Caseworker|Rosa Named']),
    )
    expect(lookups).toHaveBeenCalledTimes(1)
    const volunteer = await world.member('volunteer', { partnerId: pantry.id, profiles: ['pii_reader'] })
    const [first] = (await exported(await world.useCases.needs.export.execute(volunteer, {}))).flat()
    expect(first).toMatchObject({ partnerName: 'Pantry', assigneeName: 'Sam Caseworker' })
    expect(first!.constituentName).toBeUndefined()
  })

  test('keeps the list filters', async () => {
    const pantry = await world.partner()
    const mine = needsOf(pantry.id, 2)
    await insertNeeds([...mine, ...needsOf(world.defaultPartner.id, 2, 10)])
    const batches = await exported(await world.useCases.needs.export.execute(world.admin, { partnerId: pantry.id }))
    expect(batches.flat().map((n) => n.id)).toEqual(mine.map((n) => n.id).reverse())
    expect(await exported(await world.useCases.needs.export.execute(world.admin, { statuses: ['ESCALATED'] }))).toEqual([])
  })

  test('a partner role with pii_reader exports its own partner’s needs only, as its list shows them', async () => {
    const pantry = await world.partner()
    const own = needsOf(pantry.id, 2)
    await insertNeeds([...own, ...needsOf(world.defaultPartner.id, 3, 10)])
    const agent = await world.member('partner_agent', { partnerId: pantry.id, profiles: ['pii_reader'] })
    const ids = async (filter: { partnerId?: string }) =>
      (await exported(await world.useCases.needs.export.execute(agent, filter))).flat().map((n) => n.id)
    expect(await ids({})).toEqual(own.map((n) => n.id).reverse())
    expect(await ids({ partnerId: world.defaultPartner.id })).toEqual([])
  })

  test('is refused before anything is read to a role without the export permission', async () => {
    const reads = spyOn(world.repositories.needs, 'listAfter')
    for (const actor of [
      await world.member('staff'),
      await world.member('partner_admin', { partnerId: world.defaultPartner.id }),
      await world.member('staff', { profiles: ['email_phone_communicator'] }),
    ]) {
      await failureOf(world.useCases.needs.export.execute(actor, {}), ForbiddenError)
    }
    expect(reads).toHaveBeenCalledTimes(0)
  })
})
