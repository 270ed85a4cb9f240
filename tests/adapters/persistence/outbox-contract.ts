import { beforeEach, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { aMember } from '../../support/builders'
import type { ContractContext } from './contract-context'
import { minute, presentKeys, realTimer } from './contract-support'
import { aMessage, anOutboxInAStoreOfItsOwn } from './outbox-support'

/** The outbox: what waits, which organizations have messages due, what is in flight, and nothing kept of failed work. */
export function describeOutboxContract({ make }: ContractContext): void {
  // The outbox is read across organizations, so every test here gets an empty store of its own.
  describe('outbox', () => {
    const { boxRead, boxWrite, found, anOrganizationInBox, enqueue, claim, claimed, sorted, underClaim } = anOutboxInAStoreOfItsOwn(make)
    let org: string
    beforeEach(async () => {
      org = await anOrganizationInBox()
    })

    describe('backlog', () => {
      test('is empty with nothing waiting', async () => {
        expect(await boxRead().outbox.backlog()).toEqual({ pending: 0, sending: 0 })
      })

      test('counts pending and sending messages of every organization, and dates the oldest of them; sent and failed ones do not count', async () => {
        const other = await anOrganizationInBox()
        await enqueue(
          aMessage({ organizationId: org, createdAt: minute(5) }),
          aMessage({ organizationId: other, createdAt: minute(3) }),
          underClaim(org, minute(30), { createdAt: minute(4) }),
          aMessage({ organizationId: org, status: 'sent', createdAt: minute(1), sentAt: minute(2) }),
          aMessage({ organizationId: other, status: 'failed', createdAt: minute(2) }),
        )
        expect(await boxRead().outbox.backlog()).toEqual({ pending: 2, sending: 1, oldestQueuedAt: minute(3) })
      })
    })

    describe('enqueue and findById', () => {
      test('keeps a message, absent fields absent', async () => {
        const message = aMessage({ organizationId: org, nextAttemptAt: minute(1), createdAt: minute(1) })
        await enqueue(message)

        const stored = await found(message.id)
        expect(stored).toEqual(message)
        expect(presentKeys(stored, ['lockedUntil', 'inFlightSince', 'lastError', 'providerMessageId', 'sentAt'])).toEqual([])
        expect(await found(randomUUID())).toBeUndefined()
      })

      test('keeps every optional field and a unicode payload', async () => {
        const sent = aMessage({
          organizationId: org,
          payload: {
            channel: 'email',
            email: { template: 'invitation', to: 'zoë@example.org', subject: 'Bienvenue — ✓', text: 'Ligne 1\nLigne 2 "quoted"' },
          },
          status: 'sent',
          attempts: 2,
          lockedUntil: minute(3),
          inFlightSince: minute(2),
          lastError: '503 Service Unavailable',
          providerMessageId: 'pm-123',
          sentAt: minute(4),
        })
        await enqueue(sent)

        expect(await found(sent.id)).toEqual(sent)
      })

      test('keeps an sms payload through enqueue, claim and outcome', async () => {
        const text = aMessage({
          organizationId: org,
          payload: {
            channel: 'sms',
            sms: {
              from: '+15550001111',
              to: '+15552223333',
              body: 'Votre colis est prêt ✓ — "porte 2"\nMerci 🙏',
              interactionId: randomUUID(),
            },
          },
        })
        await enqueue(text)
        expect(await found(text.id)).toEqual(text)

        const [got] = await claim(org, minute(1), 10, minute(2))
        expect(got).toEqual(claimed(text, minute(2), minute(1)))
        expect(await boxWrite((r) => r.outbox.markSent(text.id, minute(2), minute(1.5), 'SM0123'))).toBe(true)

        expect(await found(text.id)).toEqual({ ...text, status: 'sent', sentAt: minute(1.5), providerMessageId: 'SM0123' })
      })
    })

    describe('organizationsWithDue', () => {
      test('lists each organization with due messages once: pending ones whose time has come, or lapsed claims', async () => {
        expect(await boxRead().outbox.organizationsWithDue(minute(100), 10)).toEqual([])
        const [withLapsed, dueExactlyNow, withFuture, withLive, withDone] = [
          await anOrganizationInBox(),
          await anOrganizationInBox(),
          await anOrganizationInBox(),
          await anOrganizationInBox(),
          await anOrganizationInBox(),
        ] as [string, string, string, string, string]
        await enqueue(
          aMessage({ organizationId: org, nextAttemptAt: minute(1) }),
          aMessage({ organizationId: org, nextAttemptAt: minute(2) }),
          underClaim(withLapsed, minute(4)),
          aMessage({ organizationId: dueExactlyNow, nextAttemptAt: minute(5) }),
          aMessage({ organizationId: withFuture, nextAttemptAt: minute(6) }),
          underClaim(withLive, minute(7)),
          aMessage({ organizationId: withDone, status: 'sent', nextAttemptAt: minute(0), sentAt: minute(1) }),
          aMessage({ organizationId: withDone, status: 'failed', attempts: 5, nextAttemptAt: minute(0), lastError: 'bounced' }),
        )

        expect(sorted(await boxRead().outbox.organizationsWithDue(minute(5), 10))).toEqual(sorted([org, withLapsed, dueExactlyNow]))
        expect(sorted(await boxRead().outbox.organizationsWithDue(minute(7), 10))).toEqual(
          sorted([org, withLapsed, dueExactlyNow, withFuture, withLive]),
        )
      })

      test('answers at most limit distinct organizations', async () => {
        const others = [await anOrganizationInBox(), await anOrganizationInBox()]
        // The first organization has the three oldest messages: a limit on rows rather than organizations answers it alone.
        await enqueue(
          ...[0, 1, 2].map((n) => aMessage({ organizationId: org, nextAttemptAt: minute(n) })),
          ...others.map((organizationId) => aMessage({ organizationId, nextAttemptAt: minute(3) })),
        )

        const two = await boxRead().outbox.organizationsWithDue(minute(5), 2)
        expect(two).toHaveLength(2)
        expect(new Set(two).size).toBe(2)
        for (const id of two) expect([org, ...others]).toContain(id)
        expect(sorted(await boxRead().outbox.organizationsWithDue(minute(5), 3))).toEqual(sorted([org, ...others]))
      })
    })

    describe('countInFlight', () => {
      test('counts the organization’s messages under a live claim only', async () => {
        const other = await anOrganizationInBox()
        const live = underClaim(org, minute(10))
        await enqueue(
          live,
          underClaim(org, minute(6)),
          underClaim(org, minute(5)), // lapses at minute 5: no longer in flight then
          aMessage({ organizationId: org, nextAttemptAt: minute(0) }),
          aMessage({ organizationId: org, status: 'sent', lockedUntil: minute(10), sentAt: minute(1) }),
          aMessage({ organizationId: org, status: 'failed', lockedUntil: minute(10), lastError: 'bounced' }),
          underClaim(other, minute(10)),
        )

        expect(await boxRead().outbox.countInFlight(org, minute(4))).toBe(3)
        expect(await boxRead().outbox.countInFlight(org, minute(5))).toBe(2)
        expect(await boxRead().outbox.countInFlight(org, minute(6))).toBe(1)
        expect(await boxRead().outbox.countInFlight(org, minute(10))).toBe(0)
        expect(await boxRead().outbox.countInFlight(other, minute(5))).toBe(1)
        expect(await boxRead().outbox.countInFlight(randomUUID(), minute(5))).toBe(0)

        // A claim adds what it takes (the pending one and the lapsed one), an outcome takes one away.
        expect(await claim(org, minute(5), 10, minute(15))).toHaveLength(2)
        expect(await boxRead().outbox.countInFlight(org, minute(5))).toBe(4)
        expect(await boxWrite((r) => r.outbox.markSent(live.id, minute(10), minute(5), undefined))).toBe(true)
        expect(await boxRead().outbox.countInFlight(org, minute(5))).toBe(3)
      })
    })

    test('unit of work: a message enqueued by work that fails after an await is never kept, so never sent', async () => {
      const member = aMember({ organizationId: org, isConfirmed: false })
      const message = aMessage({
        organizationId: org,
        payload: { channel: 'email', email: { template: 'invitation', to: member.email, subject: 'Invited', text: 'link' } },
      })
      const failure = new Error('invitation insert failed')

      const outcome = boxWrite(async (r) => {
        await r.members.insert(member)
        await r.outbox.enqueue(message)
        await realTimer(5)
        throw failure
      })

      await expect(outcome).rejects.toBe(failure)
      expect(await found(message.id)).toBeUndefined()
      expect(await boxRead().members.findById(org, member.id)).toBeUndefined()
      expect(await boxRead().outbox.organizationsWithDue(minute(60), 10)).toEqual([])
      expect(await claim(org, minute(60), 100, minute(61))).toEqual([])
    })
  })
}
