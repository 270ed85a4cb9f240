import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { existsSync, statSync } from 'node:fs'
import { SqliteDatabase } from '../../../src/adapters/persistence/sqlite/sqlite-database'
import { ConflictError } from '../../../src/domain/errors'
import type { OutboxMessage } from '../../../src/domain/messaging/outbox'
import { aMember, anAuditEvent, aNewNeed, anOrganization, aPartner } from '../../support/builders'
import { minute } from './contract-support'
import { planOf, recordingRepositories } from './recording-sqlite'
import { describeRepositories } from './repository-contract'
import { makeSqlite, type SqliteFixture } from './sqlite-fixture'

describeRepositories('SQLite', makeSqlite)

describe('SQLite database', () => {
  let db: SqliteFixture
  beforeAll(async () => {
    db = await makeSqlite()
  })
  afterAll(async () => {
    await db?.cleanup()
  })

  test('removes its temporary file on cleanup', async () => {
    const other = await makeSqlite()
    expect(existsSync(other.path)).toBe(true)
    await other.cleanup()
    expect(existsSync(other.path)).toBe(false)
  })

  // an unfinished statement keeps a read transaction open and the WAL then never resets.
  test('keeps the WAL file small over 2,000 single-need transactions', async () => {
    const organization = anOrganization()
    const partner = aPartner({ organizationId: organization.id, isDefault: true })
    await db.persistence.unitOfWork.run(async (r) => {
      await r.organizations.insert(organization)
      await r.partners.insert(partner)
    })

    for (let i = 0; i < 2_000; i++) {
      const need = await db.persistence.unitOfWork.run(async (r) => {
        const need = aNewNeed({ organizationId: organization.id, partnerId: partner.id, createdAt: new Date(Date.UTC(2026, 0, 1) + i) })
        await r.needs.insertMany([need])
        return need
      })
      if (i % 10 === 0) {
        expect((await db.persistence.repositories.needs.findById(organization.id, need.id))?.id).toBe(need.id)
        await db.persistence.repositories.needs.list(organization.id, {}, { page: 1, limit: 25 })
      }
    }

    expect((await db.persistence.repositories.needs.list(organization.id, {}, { page: 1, limit: 1 })).total).toBe(2_000)
    // A log that never starts over passes 110 MiB here. This one starts over once it is past 16 MiB and
    // copied (wal-checkpointer.ts), so its high-water mark is that plus what this loop, writing as fast as it
    // can, adds while the checkpointer copies.
    const walBytes = statSync(`${db.path}-wal`).size
    expect(walBytes).toBeLessThan(64 * 1024 * 1024)
  })

  // The reader connection sees only what is committed: a unit that still cannot see the first unit's write
  // through it runs in the same transaction as that write.
  test('units started in one turn of the event loop share one commit; a unit started later gets its own', async () => {
    const { unitOfWork, repositories } = db.persistence
    const [first, ...others] = Array.from({ length: 20 }, () => anOrganization())
    const firstCommittedWhenRun: boolean[] = []
    // As 20 requests read in one turn of the event loop: each handled in a task of its own, which starts a unit.
    const started = [first!, ...others].map(
      (organization, i) =>
        new Promise((resolve, reject) =>
          setImmediate(() =>
            unitOfWork
              .run(async (r) => {
                if (i > 0) firstCommittedWhenRun.push((await repositories.organizations.findById(first!.id)) !== undefined)
                await r.organizations.insert(organization)
              })
              .then(resolve, reject),
          ),
        ),
    )
    await Promise.all(started)
    expect(firstCommittedWhenRun).toEqual(others.map(() => false))
    for (const organization of [first!, ...others]) expect(await repositories.organizations.findById(organization.id)).toEqual(organization)

    const late = anOrganization()
    const committedBefore = await unitOfWork.run(async (r) => {
      await r.organizations.insert(late)
      return (await repositories.organizations.findById(first!.id)) !== undefined
    })
    expect(committedBefore).toBe(true)
  })

  test('the trail filtered by action reads its page and total by its index, however many other events there are', async () => {
    const organization = anOrganization()
    const merges = [1, 2].map((n) =>
      anAuditEvent({ organizationId: organization.id, action: 'merge', recordType: 'constituent', at: minute(n) }),
    )
    const others = Array.from({ length: 3_000 }, (_, n) => anAuditEvent({ organizationId: organization.id, at: minute(n) }))
    await db.persistence.unitOfWork.run(async (r) => {
      await r.organizations.insert(organization)
      await r.auditEvents.append([...others, ...merges])
    })
    const recording = recordingRepositories(db.path)
    const planner = new Database(db.path, { readonly: true })
    try {
      const { result, statements } = await recording.measure((r) =>
        r.auditEvents.list(organization.id, { action: 'merge' }, { page: 1, limit: 25 }),
      )

      expect(result).toEqual({ items: [...merges].reverse(), total: 2 })
      expect(statements.map((s) => s.rows)).toEqual([2, 1])
      for (const statement of statements)
        expect(planOf(planner, statement).join(' ')).toContain('INDEX audit_events_by_action (organization_id=? AND action=?)')
    } finally {
      planner.close()
      recording.close()
    }
  })

  test('the database itself refuses to change an audit event; the purge still deletes', async () => {
    const organization = anOrganization()
    const event = {
      id: randomUUID(),
      organizationId: organization.id,
      action: 'update',
      recordType: 'need',
      recordId: randomUUID(),
      at: new Date(0),
    } as const
    await db.persistence.unitOfWork.run(async (r) => {
      await r.organizations.insert(organization)
      await r.auditEvents.append([event])
    })
    const raw = new Database(db.path)
    try {
      expect(() => raw.run(`UPDATE audit_events SET action = 'read' WHERE id = ?`, [event.id])).toThrow('append-only')
    } finally {
      raw.close()
    }
    expect((await db.persistence.repositories.auditEvents.list(organization.id, {}, { page: 1, limit: 10 })).items).toEqual([event])
    expect(await db.persistence.unitOfWork.run((r) => r.auditEvents.purge(organization.id, new Date(1), 10))).toBe(1)
  })

  test('refuses a second default partner in one organization and rolls the whole write back', async () => {
    const organization = anOrganization()
    const first = aPartner({ organizationId: organization.id, isDefault: true })
    await db.persistence.unitOfWork.run(async (r) => {
      await r.organizations.insert(organization)
      await r.partners.insert(first)
    })
    const bystander = aPartner({ organizationId: organization.id })
    const second = aPartner({ organizationId: organization.id, isDefault: true })

    const outcome = db.persistence.unitOfWork.run(async (r) => {
      await r.partners.insert(bystander)
      await r.partners.insert(second)
    })

    await expect(outcome).rejects.toThrow()
    expect(await db.persistence.repositories.partners.listAll(organization.id)).toEqual([first])
  })

  test('refuses making a partner default while another still is', async () => {
    const organization = anOrganization()
    const first = aPartner({ organizationId: organization.id, isDefault: true })
    const other = aPartner({ organizationId: organization.id })
    await db.persistence.unitOfWork.run(async (r) => {
      await r.organizations.insert(organization)
      await r.partners.insert(first)
      await r.partners.insert(other)
    })

    await expect(db.persistence.unitOfWork.run((r) => r.partners.update({ ...other, isDefault: true }))).rejects.toThrow()
    expect(await db.persistence.repositories.partners.findById(organization.id, other.id)).toEqual(other)
  })

  test('a default partner of another organization is no conflict', async () => {
    const a = anOrganization()
    const b = anOrganization()
    const defaults = [aPartner({ organizationId: a.id, isDefault: true }), aPartner({ organizationId: b.id, isDefault: true })]
    await db.persistence.unitOfWork.run(async (r) => {
      await r.organizations.insert(a)
      await r.organizations.insert(b)
      for (const partner of defaults) await r.partners.insert(partner)
    })

    expect(await db.persistence.repositories.partners.listAll(a.id)).toEqual([defaults[0]!])
    expect(await db.persistence.repositories.partners.listAll(b.id)).toEqual([defaults[1]!])
  })

  test('two invites of one email started together end with one member and one ConflictError, the loser keeping nothing', async () => {
    const organization = anOrganization()
    await db.persistence.unitOfWork.run(async (r) => {
      await r.organizations.insert(organization)
      await r.partners.insert(aPartner({ organizationId: organization.id, isDefault: true }))
    })
    const email = `${randomUUID()}@example.org`
    // What InviteMember does in its transaction: the member, its invitation, the email in the outbox.
    const invite = () => {
      const member = aMember({ organizationId: organization.id, email, isConfirmed: false })
      const invitationId = randomUUID()
      const messageId = randomUUID()
      const tokenDigest = randomUUID()
      const outcome = db.persistence.unitOfWork.run(async (r) => {
        await r.organizations.findById(organization.id)
        await new Promise((resolve) => setTimeout(resolve, 2))
        await r.members.insert(member)
        await r.invitations.insert({
          id: invitationId,
          organizationId: organization.id,
          memberId: member.id,
          tokenDigest,
          createdAt: new Date(),
          expiresAt: new Date(Date.now() + 60_000),
        })
        await r.outbox.enqueue({
          id: messageId,
          organizationId: organization.id,
          payload: { channel: 'email', email: { template: 'invitation', to: email, subject: 'Invited', text: 'link' } },
          status: 'pending',
          attempts: 0,
          nextAttemptAt: new Date(),
          createdAt: new Date(),
        })
        return member
      })
      return { member, messageId, tokenDigest, outcome }
    }

    const first = invite()
    const second = invite()
    const settled = await Promise.allSettled([first.outcome, second.outcome])

    const fulfilled = settled.filter((s) => s.status === 'fulfilled')
    const rejected = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected')
    expect(fulfilled).toHaveLength(1)
    expect(rejected).toHaveLength(1)
    expect(rejected[0]!.reason).toBeInstanceOf(ConflictError)
    const [winner, loser] = settled[0]!.status === 'fulfilled' ? [first, second] : [second, first]
    expect(await db.persistence.repositories.members.findAllByEmail(email)).toEqual([winner.member])
    expect(await db.persistence.repositories.members.list(organization.id, {}, { page: 1, limit: 10 })).toEqual({
      items: [winner.member],
      total: 1,
    })
    expect(await db.persistence.repositories.outbox.findById(winner.messageId)).toBeDefined()
    expect(await db.persistence.repositories.outbox.findById(loser.messageId)).toBeUndefined()
    expect((await db.persistence.repositories.invitations.findByDigest(winner.tokenDigest))?.memberId).toBe(winner.member.id)
    expect(await db.persistence.repositories.invitations.findByDigest(loser.tokenDigest)).toBeUndefined()
  })

  // Sequential: in one thread a second connection's BEGIN IMMEDIATE busy-waits synchronously and would block the first's COMMIT.
  test('a second process on the same database counts the first one’s claims and never claims its messages', async () => {
    const organization = anOrganization()
    const at = new Date('2026-11-22T09:00:00.000Z')
    const messages: OutboxMessage[] = Array.from({ length: 10 }, (_, i) => ({
      id: randomUUID(),
      organizationId: organization.id,
      payload: { channel: 'sms', sms: { from: '+15550001111', to: '+15552223333', body: `text ${i}`, interactionId: randomUUID() } },
      status: 'pending',
      attempts: 0,
      nextAttemptAt: new Date(at.getTime() + i),
      createdAt: at,
    }))
    await db.persistence.unitOfWork.run(async (r) => {
      await r.organizations.insert(organization)
      for (const message of messages) await r.outbox.enqueue(message)
    })
    const other = new SqliteDatabase(db.path)
    try {
      const now = new Date(at.getTime() + 60_000)
      const lockedUntil = new Date(now.getTime() + 30_000)
      // What the dispatcher does: claim only what a cap of 7 leaves free.
      const claimIn = (database: SqliteDatabase, cap: number) =>
        database.unitOfWork.run(async (r) =>
          r.outbox.claimDue(organization.id, now, cap - (await r.outbox.countInFlight(organization.id, now)), lockedUntil),
        )

      const first = await claimIn(db.persistence, 4)
      const second = await claimIn(other, 7)

      expect(first.map((m) => m.id)).toEqual(messages.slice(0, 4).map((m) => m.id))
      expect(second.map((m) => m.id)).toEqual(messages.slice(4, 7).map((m) => m.id))
      expect(await other.repositories.outbox.countInFlight(organization.id, now)).toBe(7)
      expect(await db.persistence.repositories.outbox.countInFlight(organization.id, now)).toBe(7)
      expect(await claimIn(db.persistence, 7)).toEqual([])
    } finally {
      await other.close()
    }
  })
})
