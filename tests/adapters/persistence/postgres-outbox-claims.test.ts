import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { PostgresDatabase } from '../../../src/adapters/persistence/postgres/postgres-database'
import type { OutboxMessage } from '../../../src/domain/messaging/outbox'
import { anOrganization } from '../../support/builders'
import { postgresAvailable } from '../../support/postgres'
import { minute } from './contract-support'
import { db, gate, openTwoInstances, other, read, within, write } from './postgres-support'

// Two instances claiming the outbox of one PostgreSQL database at once (FOR UPDATE SKIP LOCKED, the
// organization's row lock): no message twice, none left behind, the organization's cap kept.

/** `count` pending SMS messages of one organization, due one millisecond apart from `at`. */
function dueMessages(organizationId: string, count: number, at = minute(0)): OutboxMessage[] {
  return Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    organizationId,
    payload: { channel: 'sms', sms: { from: '+15550001111', to: '+15552223333', body: `text ${i}`, interactionId: randomUUID() } },
    status: 'pending',
    attempts: 0,
    nextAttemptAt: new Date(at.getTime() + i),
    createdAt: at,
  }))
}

if (postgresAvailable())
  describe('PostgreSQL database', () => {
    openTwoInstances()

    async function anOrganizationWithMessages(count: number, overrides: Parameters<typeof anOrganization>[0] = {}) {
      const organization = anOrganization(overrides)
      const messages = dueMessages(organization.id, count)
      await write(async (r) => {
        await r.organizations.insert(organization)
        for (const message of messages) await r.outbox.enqueue(message)
      })
      return { organization, messages }
    }

    describe('outbox claims from two instances (FOR UPDATE SKIP LOCKED)', () => {
      const now = minute(60)
      const lockedUntil = minute(61)

      test('a claim skips the messages an open claim of another instance holds, without waiting for it', async () => {
        const { organization, messages } = await anOrganizationWithMessages(20)
        const claimedA = gate()
        const release = gate()
        const first = db.persistence.unitOfWork.run(async (r) => {
          const claimed = await r.outbox.claimDue(organization.id, now, 5, lockedUntil)
          claimedA.open()
          await release.opened
          return claimed
        })
        await claimedA.opened

        const second = other.unitOfWork.run((r) => r.outbox.claimDue(organization.id, now, 5, lockedUntil))
        const waited = await within(second, 2_000)
        release.open()

        expect(waited).toBe('settled')
        expect((await first).map((m) => m.id)).toEqual(messages.slice(0, 5).map((m) => m.id))
        expect((await second).map((m) => m.id)).toEqual(messages.slice(5, 10).map((m) => m.id))
        expect(await read().outbox.countInFlight(organization.id, now)).toBe(10)
      })

      test('many concurrent claims from two instances never hand out one message twice, and leave none behind', async () => {
        const { organization, messages } = await anOrganizationWithMessages(60)
        const claimLoop = async (database: PostgresDatabase) => {
          const taken: string[] = []
          for (;;) {
            const claimed = await database.unitOfWork.run(async (r) => {
              const batch = await r.outbox.claimDue(organization.id, now, 3, lockedUntil)
              await new Promise((resolve) => setImmediate(resolve))
              return batch
            })
            if (claimed.length === 0) return taken
            taken.push(...claimed.map((m) => m.id))
          }
        }

        const results = await Promise.all([claimLoop(db.persistence), claimLoop(other), claimLoop(db.persistence), claimLoop(other)])
        const all = results.flat()

        expect(all).toHaveLength(messages.length)
        expect(new Set(all).size).toBe(messages.length)
        expect(new Set(all)).toEqual(new Set(messages.map((m) => m.id)))
        expect(await read().outbox.countInFlight(organization.id, now)).toBe(messages.length)
      })

      test('the per-organization cap holds with two instances claiming at once: the organization row lock makes the second count after the first', async () => {
        const cap = 3
        const { organization } = await anOrganizationWithMessages(10, { maxConcurrency: cap })
        // What the dispatcher does in one transaction: lock the organization, count its live claims, claim what is left.
        const claimUnderCap = (database: PostgresDatabase, counted?: () => void, release?: Promise<void>) =>
          database.unitOfWork.run(async (r) => {
            await r.organizations.lockForUpdate(organization.id)
            const free = cap - (await r.outbox.countInFlight(organization.id, now))
            const claimed = await r.outbox.claimDue(organization.id, now, free, lockedUntil)
            counted?.()
            await release
            return claimed
          })

        const firstClaimed = gate()
        const release = gate()
        const first = claimUnderCap(db.persistence, firstClaimed.open, release.opened)
        await firstClaimed.opened
        const second = claimUnderCap(other)
        const whileFirstHolds = await within(second, 300)
        release.open()

        // The second instance waits on the organization row while the first holds it, then counts its claims.
        expect(whileFirstHolds).toBe('waiting')
        expect(await first).toHaveLength(cap)
        expect(await second).toEqual([])
        expect(await read().outbox.countInFlight(organization.id, now)).toBe(cap)
      })

      test('the cap holds over many rounds of claims racing from two instances', async () => {
        const cap = 3
        const { organization } = await anOrganizationWithMessages(12, { maxConcurrency: cap })
        const claimUnderCap = (database: PostgresDatabase, at: Date) =>
          database.unitOfWork.run(async (r) => {
            await r.organizations.lockForUpdate(organization.id)
            const free = cap - (await r.outbox.countInFlight(organization.id, at))
            await new Promise((resolve) => setImmediate(resolve))
            return r.outbox.claimDue(organization.id, at, free, new Date(at.getTime() + 60_000))
          })

        // Each round's claims lapse before the next: at most `cap` in flight at any time, every round filling the cap.
        for (let round = 0; round < 4; round++) {
          const at = minute(100 + round * 2)
          const claims = await Promise.all([
            claimUnderCap(db.persistence, at),
            claimUnderCap(other, at),
            claimUnderCap(db.persistence, at),
            claimUnderCap(other, at),
          ])
          expect(claims.flat()).toHaveLength(cap)
          expect(await read().outbox.countInFlight(organization.id, at)).toBe(cap)
        }
      })
    })
  })
