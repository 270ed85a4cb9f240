import { beforeEach, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { OutboxMessage } from '../../../src/domain/messaging/outbox'
import type { ContractContext } from './contract-context'
import { ascendingIds, ids, minute, presentKeys } from './contract-support'
import { aMessage, anOutboxInAStoreOfItsOwn } from './outbox-support'

/** The outbox's claims (claimDue): which messages a worker takes, and how they are held. */
export function describeOutboxClaimContract({ make }: ContractContext): void {
  // The outbox is read across organizations, so every test here gets an empty store of its own.
  describe('outbox', () => {
    const { boxRead, boxWrite, found, anOrganizationInBox, enqueue, claim, claimed, sorted, underClaim } = anOutboxInAStoreOfItsOwn(make)
    let org: string
    beforeEach(async () => {
      org = await anOrganizationInBox()
    })

    describe('claimDue', () => {
      test('claims the organization’s pending messages due by now, as sending, their attempt starting now; leaves the rest untouched', async () => {
        const early = aMessage({ organizationId: org, nextAttemptAt: minute(1) })
        const exactlyNow = aMessage({ organizationId: org, nextAttemptAt: minute(5) })
        const later = aMessage({ organizationId: org, nextAttemptAt: minute(6) })
        await enqueue(later, exactlyNow, early)

        const got = await claim(org, minute(5), 10, minute(6))

        expect(got).toEqual([claimed(early, minute(6), minute(5)), claimed(exactlyNow, minute(6), minute(5))])
        expect(await found(early.id)).toEqual(claimed(early, minute(6), minute(5)))
        expect(await found(exactlyNow.id)).toEqual(claimed(exactlyNow, minute(6), minute(5)))
        const untouched = await found(later.id)
        expect(untouched).toEqual(later)
        expect(presentKeys(untouched, ['lockedUntil', 'inFlightSince'])).toEqual([])
      })

      test('claims at most limit messages, oldest nextAttemptAt first, id as tie-break', async () => {
        const [low, high] = ascendingIds(2) as [string, string]
        const m3 = aMessage({ organizationId: org, nextAttemptAt: minute(3), createdAt: minute(0) })
        const m1 = aMessage({ organizationId: org, nextAttemptAt: minute(1), createdAt: minute(9) })
        const m2low = aMessage({ id: low, organizationId: org, nextAttemptAt: minute(2) })
        const m2high = aMessage({ id: high, organizationId: org, nextAttemptAt: minute(2) })
        const m4 = aMessage({ organizationId: org, nextAttemptAt: minute(4) })
        await enqueue(m4, m2high, m3, m2low, m1)
        const take = () => claim(org, minute(10), 2, minute(20))
        const asClaimed = (...messages: OutboxMessage[]) => messages.map((m) => claimed(m, minute(20), minute(10)))

        expect(await take()).toEqual(asClaimed(m1, m2low))
        expect(await take()).toEqual(asClaimed(m2high, m3))
        expect(await take()).toEqual(asClaimed(m4))
        expect(await take()).toEqual([])
      })

      test('claims only the organization named, however old another’s messages are', async () => {
        const other = await anOrganizationInBox()
        const theirs = aMessage({ organizationId: other, nextAttemptAt: minute(0) })
        const theirsLapsed = underClaim(other, minute(1))
        const mine = aMessage({ organizationId: org, nextAttemptAt: minute(2) })
        await enqueue(theirs, theirsLapsed, mine)

        expect(await claim(org, minute(5), 10, minute(6))).toEqual([claimed(mine, minute(6), minute(5))])
        expect(await found(theirs.id)).toEqual(theirs)
        expect(await found(theirsLapsed.id)).toEqual(theirsLapsed)
        expect(await claim(randomUUID(), minute(5), 10, minute(6))).toEqual([])
        expect(sorted(ids(await claim(other, minute(5), 10, minute(6))))).toEqual(sorted([theirs.id, theirsLapsed.id]))
      })

      test('a limit of zero or less claims nothing', async () => {
        const messages = [aMessage({ organizationId: org }), aMessage({ organizationId: org }), aMessage({ organizationId: org })]
        await enqueue(...messages)

        expect(await claim(org, minute(1), 0, minute(2))).toEqual([])
        expect(await claim(org, minute(1), -1, minute(2))).toEqual([])
        for (const message of messages) expect(await found(message.id)).toEqual(message)
      })

      test('answers nothing when nothing is due', async () => {
        const message = aMessage({ organizationId: org, nextAttemptAt: minute(30) })
        await enqueue(message)

        expect(await claim(org, minute(29), 10, minute(40))).toEqual([])
        expect(await found(message.id)).toEqual(message)
      })

      test('a lapsed claim is claimable again, keeping when its interrupted attempt began; a live one is not', async () => {
        const lapsed = underClaim(org, minute(4), { attempts: 1, nextAttemptAt: minute(0), inFlightSince: minute(2) })
        const lapsingNow = underClaim(org, minute(5), { nextAttemptAt: minute(1), inFlightSince: minute(3) })
        const live = underClaim(org, minute(6), { nextAttemptAt: minute(0), inFlightSince: minute(4) })
        await enqueue(live, lapsingNow, lapsed)

        const got = await claim(org, minute(5), 10, minute(15))

        expect(got).toEqual([claimed(lapsed, minute(15), minute(2)), claimed(lapsingNow, minute(15), minute(3))])
        expect(await found(lapsed.id)).toEqual(claimed(lapsed, minute(15), minute(2)))
        expect(await found(live.id)).toEqual(live)
        // Once its lease lapses, the live one comes back too.
        expect(await claim(org, minute(6), 10, minute(16))).toEqual([claimed(live, minute(16), minute(4))])
      })

      test('two claims in sequence never hand out one message while its lease holds; once it lapses it comes back with its first attempt’s time', async () => {
        const messages = ascendingIds(5).map((id, i) => aMessage({ id, organizationId: org, nextAttemptAt: minute(i) }))
        await enqueue(...[...messages].reverse())

        const first = await claim(org, minute(10), 3, minute(11))
        const second = await claim(org, minute(10.5), 10, minute(12))

        expect(first).toEqual(messages.slice(0, 3).map((m) => claimed(m, minute(11), minute(10))))
        expect(second).toEqual(messages.slice(3).map((m) => claimed(m, minute(12), minute(10.5))))
        expect(await claim(org, minute(10.9), 10, minute(13))).toEqual([])
        // The first worker died: its three come back after minute 11, the second's are still held.
        const retaken = await claim(org, minute(11), 10, minute(21))
        expect(retaken).toEqual(messages.slice(0, 3).map((m) => claimed(m, minute(21), minute(10))))
      })

      test('a sent or failed message is never claimed again', async () => {
        const toSend = aMessage({ organizationId: org })
        const toFail = aMessage({ organizationId: org })
        const storedSent = aMessage({ organizationId: org, status: 'sent', sentAt: minute(1) })
        const storedFailed = aMessage({ organizationId: org, status: 'failed', attempts: 5, lastError: 'bounced' })
        await enqueue(toSend, toFail, storedSent, storedFailed)
        expect(sorted(ids(await claim(org, minute(1), 10, minute(2))))).toEqual(sorted([toSend.id, toFail.id]))

        const outcomes = await boxWrite(async (r) => [
          await r.outbox.markSent(toSend.id, minute(2), minute(1.5), 'provider-1'),
          await r.outbox.markFailed(toFail.id, minute(2), 1, '550 mailbox unavailable'),
        ])

        expect(outcomes).toEqual([true, true])
        const muchLater = minute(60 * 24 * 365)
        expect(await claim(org, muchLater, 100, minute(60 * 24 * 366))).toEqual([])
        expect(await boxRead().outbox.organizationsWithDue(muchLater, 10)).toEqual([])
        expect(await boxRead().outbox.countInFlight(org, minute(1))).toBe(0)
        expect(await found(storedSent.id)).toEqual(storedSent)
        expect(await found(storedFailed.id)).toEqual(storedFailed)
      })

      test('a claim in a transaction that rolls back leaves its messages pending', async () => {
        const message = aMessage({ organizationId: org })
        await enqueue(message)
        const failure = new Error('worker crashed')

        await expect(
          boxWrite(async (r) => {
            expect(await r.outbox.claimDue(org, minute(1), 10, minute(2))).toHaveLength(1)
            throw failure
          }),
        ).rejects.toBe(failure)

        expect(await found(message.id)).toEqual(message)
        expect(await boxRead().outbox.countInFlight(org, minute(1))).toBe(0)
        expect(await claim(org, minute(1), 10, minute(2))).toEqual([claimed(message, minute(2), minute(1))])
      })

      test('changing the dates given to a claim afterwards changes nothing stored', async () => {
        const message = aMessage({ organizationId: org })
        await enqueue(message)
        const now = minute(1)
        const lockedUntil = minute(2)

        await claim(org, now, 10, lockedUntil)
        now.setTime(minute(50).getTime())
        lockedUntil.setTime(minute(60).getTime())

        expect(await found(message.id)).toEqual(claimed(message, minute(2), minute(1)))
        expect(await boxRead().outbox.countInFlight(org, minute(3))).toBe(0)
      })
    })
  })
}
