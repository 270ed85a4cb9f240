import { beforeEach, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { OutboxMessage } from '../../../src/domain/messaging/outbox'
import type { ContractContext } from './contract-context'
import { minute, presentKeys, realTimer } from './contract-support'
import { aMessage, anOutboxInAStoreOfItsOwn } from './outbox-support'

/** The outbox's outcomes: a claimed message marked sent, retried or failed. */
export function describeOutboxOutcomeContract({ make }: ContractContext): void {
  // The outbox is read across organizations, so every test here gets an empty store of its own.
  describe('outbox', () => {
    const { boxRead, boxWrite, found, anOrganizationInBox, enqueue, claim, claimed } = anOutboxInAStoreOfItsOwn(make)
    let org: string
    beforeEach(async () => {
      org = await anOrganizationInBox()
    })

    describe('outcomes', () => {
      test('markSent records the time and provider id, dropping the claim and the attempt time', async () => {
        const withId = aMessage({ organizationId: org })
        const withoutId = aMessage({ organizationId: org, nextAttemptAt: minute(0.5) })
        await enqueue(withId, withoutId)
        await claim(org, minute(1), 10, minute(2))

        const outcomes = await boxWrite(async (r) => [
          await r.outbox.markSent(withId.id, minute(2), minute(1.5), 'provider-42'),
          await r.outbox.markSent(withoutId.id, minute(2), minute(1.75), undefined),
        ])

        expect(outcomes).toEqual([true, true])
        const sent = await found(withId.id)
        expect(sent).toEqual({ ...withId, status: 'sent', sentAt: minute(1.5), providerMessageId: 'provider-42' })
        expect(presentKeys(sent, ['lockedUntil', 'inFlightSince', 'lastError'])).toEqual([])
        const sentWithoutId = await found(withoutId.id)
        expect(sentWithoutId).toEqual({ ...withoutId, status: 'sent', sentAt: minute(1.75) })
        expect(presentKeys(sentWithoutId, ['lockedUntil', 'inFlightSince', 'lastError', 'providerMessageId'])).toEqual([])
      })

      test('reschedule puts a message back to pending with its attempts, next time and error; its next claim is a new attempt', async () => {
        const message = aMessage({ organizationId: org })
        await enqueue(message)
        await claim(org, minute(0), 10, minute(1))

        expect(await boxWrite((r) => r.outbox.reschedule(message.id, minute(1), 1, minute(3), '503 try later'))).toBe(true)

        const rescheduled = await found(message.id)
        const expected: OutboxMessage = { ...message, status: 'pending', attempts: 1, nextAttemptAt: minute(3), lastError: '503 try later' }
        expect(rescheduled).toEqual(expected)
        expect(presentKeys(rescheduled, ['lockedUntil', 'inFlightSince', 'sentAt', 'providerMessageId'])).toEqual([])
        expect(await boxRead().outbox.countInFlight(org, minute(0.5))).toBe(0)
        expect(await claim(org, minute(2.9), 10, minute(4))).toEqual([])
        expect(await claim(org, minute(3), 10, minute(4))).toEqual([claimed(expected, minute(4), minute(3))])
      })

      test('markFailed records the attempts and error for good', async () => {
        const message = aMessage({ organizationId: org, attempts: 4, nextAttemptAt: minute(2) })
        await enqueue(message)
        await claim(org, minute(2), 10, minute(3))

        expect(await boxWrite((r) => r.outbox.markFailed(message.id, minute(3), 5, '421 too many tries'))).toBe(true)

        const failed = await found(message.id)
        expect(failed).toEqual({ ...message, status: 'failed', attempts: 5, lastError: '421 too many tries' })
        expect(presentKeys(failed, ['lockedUntil', 'inFlightSince', 'sentAt', 'providerMessageId'])).toEqual([])
      })

      test('an outcome under another fence, of a message no claim holds or of no message answers false and changes nothing', async () => {
        const message = aMessage({ organizationId: org })
        // Not due, and pending although it carries the same lockedUntil: only a claim is a fence.
        const pending = aMessage({ organizationId: org, nextAttemptAt: minute(30), lockedUntil: minute(2) })
        await enqueue(message, pending)
        const [held] = await claim(org, minute(1), 10, minute(2))
        const offBy = (ms: number) => new Date(minute(2).getTime() + ms)

        const outcomes = await boxWrite(async (r) => [
          await r.outbox.markSent(message.id, offBy(-1), minute(1.5), 'provider-1'),
          await r.outbox.reschedule(message.id, offBy(1), 1, minute(5), 'late'),
          await r.outbox.markFailed(message.id, minute(1), 1, 'late'),
          await r.outbox.markSent(pending.id, minute(2), minute(1.5), 'provider-2'),
          await r.outbox.reschedule(pending.id, minute(2), 1, minute(5), 'late'),
          await r.outbox.markFailed(pending.id, minute(2), 1, 'late'),
          await r.outbox.markSent(randomUUID(), minute(2), minute(1.5), 'provider-3'),
        ])

        expect(outcomes).toEqual([false, false, false, false, false, false, false])
        expect(await found(message.id)).toEqual(held)
        expect(await found(pending.id)).toEqual(pending)
        // The claim's own fence applies, once.
        expect(await boxWrite((r) => r.outbox.markSent(message.id, minute(2), minute(1.5), 'provider-1'))).toBe(true)
        expect(await boxWrite((r) => r.outbox.markFailed(message.id, minute(2), 1, 'again'))).toBe(false)
        expect(await boxWrite((r) => r.outbox.reschedule(message.id, minute(2), 1, minute(9), 'again'))).toBe(false)
        expect(await boxWrite((r) => r.outbox.markSent(message.id, minute(2), minute(8), 'provider-9'))).toBe(false)
        expect(await found(message.id)).toEqual({ ...message, status: 'sent', sentAt: minute(1.5), providerMessageId: 'provider-1' })
      })

      test('after a lapsed claim is taken again, the first worker’s late outcomes are refused and the second’s applies', async () => {
        const message = aMessage({ organizationId: org })
        await enqueue(message)
        const [first] = await claim(org, minute(1), 10, minute(2))
        const [second] = await claim(org, minute(3), 10, minute(4))
        expect(second).toEqual(claimed(message, minute(4), minute(1)))

        const late = await boxWrite(async (r) => [
          await r.outbox.markSent(message.id, first!.lockedUntil!, minute(3.5), 'from-first'),
          await r.outbox.reschedule(message.id, first!.lockedUntil!, 1, minute(10), 'first timed out'),
          await r.outbox.markFailed(message.id, first!.lockedUntil!, 1, 'first gave up'),
        ])

        expect(late).toEqual([false, false, false])
        expect(await found(message.id)).toEqual(second)
        expect(await boxRead().outbox.countInFlight(org, minute(3.5))).toBe(1)
        expect(await boxWrite((r) => r.outbox.markSent(message.id, second!.lockedUntil!, minute(3.6), 'from-second'))).toBe(true)
        expect(await found(message.id)).toEqual({ ...message, status: 'sent', sentAt: minute(3.6), providerMessageId: 'from-second' })
      })

      test('a late outcome after the next worker rescheduled changes nothing', async () => {
        const message = aMessage({ organizationId: org })
        await enqueue(message)
        const [first] = await claim(org, minute(1), 10, minute(2))
        const [second] = await claim(org, minute(3), 10, minute(4))
        expect(await boxWrite((r) => r.outbox.reschedule(message.id, second!.lockedUntil!, 1, minute(5), '503'))).toBe(true)
        const rescheduled: OutboxMessage = { ...message, attempts: 1, nextAttemptAt: minute(5), lastError: '503' }

        expect(await boxWrite((r) => r.outbox.markSent(message.id, first!.lockedUntil!, minute(4.5), 'from-first'))).toBe(false)
        expect(await boxWrite((r) => r.outbox.markFailed(message.id, second!.lockedUntil!, 2, 'twice'))).toBe(false)

        expect(await found(message.id)).toEqual(rescheduled)
        expect(await claim(org, minute(5), 10, minute(6))).toEqual([claimed(rescheduled, minute(6), minute(5))])
      })

      test('an outcome in a transaction that rolls back leaves the claim holding', async () => {
        const message = aMessage({ organizationId: org })
        await enqueue(message)
        const [held] = await claim(org, minute(1), 10, minute(2))
        const failure = new Error('interaction update failed')

        await expect(
          boxWrite(async (r) => {
            expect(await r.outbox.markSent(message.id, minute(2), minute(1.5), 'provider-1')).toBe(true)
            await realTimer(2)
            throw failure
          }),
        ).rejects.toBe(failure)

        expect(await found(message.id)).toEqual(held)
        expect(await boxWrite((r) => r.outbox.markSent(message.id, minute(2), minute(1.6), 'provider-1'))).toBe(true)
      })
    })
  })
}
