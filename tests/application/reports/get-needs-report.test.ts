import { beforeEach, describe, expect, test } from 'bun:test'
import type { CreateNeedInput } from '../../../src/application/needs/create-need'
import type { GetNeedsReport } from '../../../src/application/reports/get-needs-report'
import { ForbiddenError, InvalidError } from '../../../src/domain/errors'
import type { Need } from '../../../src/domain/needs/need'
import { createWorld, type World } from '../../support/world'
import { failureOf, pathsOf } from '../failure-of'

const HOUR = 3_600_000

let world: World
let report: GetNeedsReport
beforeEach(async () => {
  world = await createWorld()
  report = world.useCases.reports.needs
})

const created = (input: Partial<CreateNeedInput> = {}): Promise<Need> =>
  world.useCases.needs.create.execute(world.admin, { partnerId: world.defaultPartner.id, ...input })
const resolve = (need: Need) => world.useCases.needs.update.execute(world.admin, need.id, { status: 'RESOLVED' })
const today = () => world.clock.now().toISOString().slice(0, 10)

describe('GetNeedsReport', () => {
  test('counts what the use cases did: opened, resolved with the median hours, open and overdue now, per status and partner', async () => {
    const pantry = await world.partner({ name: 'Pantry', slaHours: 1 })
    const [a, b] = [await created(), await created()]
    await created({ partnerId: pantry.id })
    world.clock.advance(2 * HOUR)
    await resolve(a)
    world.clock.advance(3 * HOUR)
    await resolve(b)
    const day = today()
    const answer = await report.execute(world.admin, { from: day, to: day })
    expect(answer).toMatchObject({ opened: 3, resolved: 2, open: 1, overdue: 1 })
    expect(answer.byStatus).toEqual({ NEW: 1, IN_PROGRESS: 0, PENDING_INTERNAL: 0, PENDING_CLIENT: 0, RESOLVED: 2, ESCALATED: 0 })
    expect(answer.byPartner).toEqual(
      [
        {
          partnerId: world.defaultPartner.id,
          partnerName: world.defaultPartner.name,
          opened: 2,
          resolved: 2,
          open: 0,
          overdue: 0,
          medianHoursToResolve: 3.5,
        },
        { partnerId: pantry.id, partnerName: 'Pantry', opened: 1, resolved: 0, open: 1, overdue: 1, medianHoursToResolve: null },
      ].sort((x, y) => x.partnerName.localeCompare(y.partnerName)),
    )
  })

  test("a partner role sees its own partner's figures only", async () => {
    const pantry = await world.partner({ name: 'Pantry' })
    await created()
    await created({ partnerId: pantry.id })
    const agent = await world.member('partner_agent', { partnerId: pantry.id })
    const answer = await report.execute(agent, { from: today(), to: today() })
    expect(answer).toMatchObject({ opened: 1, open: 1 })
    expect(answer.byPartner.map((p) => p.partnerId)).toEqual([pantry.id])
    expect(answer.byStatus.NEW).toBe(1)
  })

  test('refuses volunteers, and a period that is not one of whole days in order, at most 366 of them', async () => {
    await failureOf(report.execute(await world.member('volunteer'), { from: today(), to: today() }), ForbiddenError)
    const refused = async (from: string, to: string) => pathsOf(await failureOf(report.execute(world.admin, { from, to }), InvalidError))
    expect(await refused('2026-02-30', '2026-03-01')).toEqual(['/from'])
    expect(await refused('2026-03-02', '2026-03-01')).toEqual(['/to'])
    expect(await refused('2026-01-01', '2027-01-02')).toEqual(['/to'])
    expect((await report.execute(world.admin, { from: '2024-01-01', to: '2024-12-31' })).byWeek).toHaveLength(53)
  })
})
