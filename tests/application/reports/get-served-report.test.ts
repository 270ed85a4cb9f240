import { beforeEach, describe, expect, test } from 'bun:test'
import { ForbiddenError, InvalidError } from '../../../src/domain/errors'
import type { Need } from '../../../src/domain/needs/need'
import { PORTS } from '../../../src/main/container'
import { aNeed } from '../../support/builders'
import { createWorld, type World } from '../../support/world'
import { failureOf, pathsOf } from '../failure-of'

// docs/api/needs.md "People served", on the in-memory adapters.
let world: World
beforeEach(async () => {
  world = await createWorld()
})

const served = (from: string, to = from, actor = world.admin) => world.useCases.reports.served.execute(actor, { from, to })
const person = () => ({ constituentId: crypto.randomUUID(), householdId: crypto.randomUUID() })

/** A need of `partnerId` resolved at `resolvedAt`, for `who` on file. */
async function resolvedAt(partnerId: string, iso: string, who: Partial<Need> = {}) {
  const need = aNeed({
    organizationId: world.organizationId,
    partnerId,
    status: 'RESOLVED',
    createdAt: new Date('2026-10-01'),
    resolvedAt: new Date(iso),
    ...who,
  })
  await world.container.get(PORTS.unitOfWork).run((r) => r.needs.insert(need))
}

describe('GetServedReport', () => {
  test('counts the people and households of the needs resolved in the period once each, in all and per partner', async () => {
    const pantry = await world.partner({ name: 'Pantry' })
    const [ana, bo] = [person(), person()]
    const sister = { constituentId: crypto.randomUUID(), householdId: ana.householdId }
    await resolvedAt(pantry.id, '2026-11-02T10:00:00Z', ana)
    await resolvedAt(pantry.id, '2026-11-03T10:00:00Z', ana)
    await resolvedAt(pantry.id, '2026-11-03T11:00:00Z', sister)
    await resolvedAt(world.defaultPartner.id, '2026-11-04T10:00:00Z', ana)
    await resolvedAt(world.defaultPartner.id, '2026-11-05T10:00:00Z', bo)
    await resolvedAt(world.defaultPartner.id, '2026-11-06T10:00:00Z')

    const report = await served('2026-11-01', '2026-11-30')
    expect(report).toMatchObject({ from: '2026-11-01', to: '2026-11-30', timeZone: 'UTC', people: 3, households: 2 })
    expect(report.byPartner).toEqual(
      [
        { partnerId: pantry.id, partnerName: 'Pantry', people: 2, households: 1 },
        { partnerId: world.defaultPartner.id, partnerName: world.defaultPartner.name, people: 2, households: 2 },
      ].sort((a, b) => a.partnerName.localeCompare(b.partnerName)),
    )
    const agent = await world.member('partner_agent', { partnerId: pantry.id })
    expect(await served('2026-11-01', '2026-11-30', agent)).toMatchObject({
      people: 2,
      households: 1,
      byPartner: [{ partnerId: pantry.id }],
    })
  })

  test("the period's days are the organization's: a need resolved at 23:30 in Los Angeles counts on that day, not on the UTC one", async () => {
    await resolvedAt(world.defaultPartner.id, '2026-11-10T07:30:00Z', person())
    await resolvedAt(world.defaultPartner.id, '2026-11-10T08:30:00Z', person())
    // UTC until set: both on the 10th.
    expect(await served('2026-11-10')).toMatchObject({
      people: 2,
      since: new Date('2026-11-10T00:00:00Z'),
      until: new Date('2026-11-11T00:00:00Z'),
    })
    await world.useCases.organizations.updateSettings.execute(world.admin, { timeZone: 'America/Los_Angeles' })
    expect(await served('2026-11-09')).toMatchObject({ timeZone: 'America/Los_Angeles', people: 1 })
    expect(await served('2026-11-10')).toMatchObject({
      people: 1,
      since: new Date('2026-11-10T08:00:00Z'),
      until: new Date('2026-11-11T08:00:00Z'),
    })
  })

  test('refuses a bad period by its field, and a volunteer', async () => {
    expect(pathsOf(await failureOf(served('2026-11-30', '2026-11-01'), InvalidError))).toEqual(['/to'])
    expect(pathsOf(await failureOf(served('2026-02-30'), InvalidError))).toEqual(['/from', '/to'])
    await failureOf(
      served('2026-11-01', '2026-11-01', await world.member('volunteer', { partnerId: world.defaultPartner.id })),
      ForbiddenError,
    )
  })
})
