import { describe, expect, test } from 'bun:test'
import type { LiveEvent } from '../../../src/domain/webhooks/live-event'
import { until } from '../../application/sms-world'
import type { ContractContext } from './contract-context'
import { minute } from './contract-support'

const ORGANIZATION = 'a1d5e6c0-0000-4000-8000-000000000001'
const OTHER = 'a1d5e6c0-0000-4000-8000-000000000002'

/** The live stream's events (docs/events.md "The live stream"): numbered in order, read by number, kept minutes. */
export function describeLiveEventContract({ make }: ContractContext): void {
  describe('live events', () => {
    test('are numbered in the order written; read above a number across organizations, by ids, and one organization replayed', async () => {
      const { persistence, cleanup } = await make()
      try {
        await persistence.unitOfWork.run((r) =>
          r.liveEvents.append(ORGANIZATION, 'need.created', [{ needId: 'n1' }, { needId: 'n2' }], minute(0)),
        )
        await persistence.unitOfWork.run((r) =>
          r.liveEvents.append(OTHER, 'note.added', [{ needId: 'n3', interactionId: 'i1' }], minute(1)),
        )
        const all = await persistence.repositories.liveEvents.after(0, 10)
        expect(all.map(({ organizationId, type, data, createdAt }) => ({ organizationId, type, data, createdAt }))).toEqual([
          { organizationId: ORGANIZATION, type: 'need.created', data: { needId: 'n1' }, createdAt: minute(0) },
          { organizationId: ORGANIZATION, type: 'need.created', data: { needId: 'n2' }, createdAt: minute(0) },
          { organizationId: OTHER, type: 'note.added', data: { needId: 'n3', interactionId: 'i1' }, createdAt: minute(1) },
        ])
        const [first, second, third] = all as [LiveEvent, LiveEvent, LiveEvent]
        expect(first.id < second.id && second.id < third.id).toBe(true)
        expect(await persistence.repositories.liveEvents.after(first.id, 1)).toEqual([second])
        expect(await persistence.repositories.liveEvents.byIds([third.id, 999_999, first.id])).toEqual([third, first])
        expect(await persistence.repositories.liveEvents.replay(ORGANIZATION, first.id, 10)).toEqual([second])
        expect(await persistence.repositories.liveEvents.bounds()).toEqual({ lowest: first.id, highest: third.id })
      } finally {
        await cleanup()
      }
    })

    test('what rolls back is never read; the purge keeps the newest event, and numbering goes on above it', async () => {
      const { persistence, cleanup } = await make()
      const events = persistence.repositories.liveEvents
      try {
        const undone = persistence.unitOfWork.run(async (r) => {
          await r.liveEvents.append(ORGANIZATION, 'need.updated', [{ needId: 'undone' }], minute(0))
          throw new Error('rolled back')
        })
        await expect(undone).rejects.toThrow('rolled back')
        expect(await events.after(0, 10)).toEqual([])
        expect(await events.bounds()).toBeUndefined()

        await persistence.unitOfWork.run((r) =>
          r.liveEvents.append(ORGANIZATION, 'need.created', [{ needId: 'a' }, { needId: 'b' }], minute(0)),
        )
        const [, newest] = (await events.after(0, 10)) as [LiveEvent, LiveEvent]
        expect(await persistence.unitOfWork.run((r) => r.liveEvents.purge(minute(10), 100))).toBe(1)
        expect(await events.after(0, 10)).toEqual([newest])
        await persistence.unitOfWork.run((r) => r.liveEvents.append(ORGANIZATION, 'need.created', [{ needId: 'c' }], minute(20)))
        const [, next] = (await events.after(0, 10)) as [LiveEvent, LiveEvent]
        expect(next.id).toBeGreaterThan(newest.id)
        expect(await persistence.unitOfWork.run((r) => r.liveEvents.purge(minute(10), 100))).toBe(1)
        expect(await events.bounds()).toEqual({ lowest: next.id, highest: next.id })
      } finally {
        await cleanup()
      }
    })

    test("the database's feed brings what commits after it starts, in order, and nothing that rolled back", async () => {
      const { persistence, cleanup } = await make()
      const feed = persistence.liveEventFeed()
      const delivered: LiveEvent[] = []
      try {
        await persistence.unitOfWork.run((r) => r.liveEvents.append(ORGANIZATION, 'need.created', [{ needId: 'before' }], minute(0)))
        await feed.start(async (events) => void delivered.push(...events))
        await persistence.unitOfWork.run((r) =>
          r.liveEvents.append(ORGANIZATION, 'need.created', [{ needId: 'one' }, { needId: 'two' }], minute(1)),
        )
        await persistence.unitOfWork
          .run(async (r) => {
            await r.liveEvents.append(ORGANIZATION, 'need.created', [{ needId: 'undone' }], minute(1))
            throw new Error('rolled back')
          })
          .catch(() => undefined)
        await persistence.unitOfWork.run((r) => r.liveEvents.append(OTHER, 'sms.received', [{ interactionId: 'three' }], minute(2)))
        await until(() => delivered.length >= 3)
        expect(delivered.map((e) => e.data)).toEqual([{ needId: 'one' }, { needId: 'two' }, { interactionId: 'three' }])
      } finally {
        await feed.stop()
        await cleanup()
      }
    })
  })
}
