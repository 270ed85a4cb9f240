import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { AuditEvent } from '../../../src/domain/audit/audit-event'
import { ConflictError } from '../../../src/domain/errors'
import { failureOf } from '../failure-of'
import { aConstituent, openAuditWorld, u, world } from './audit-trail-support'

// docs/audit.md: an event names the fields a write changed or a read showed, never their values, so the
// trail itself holds no personal details; a write that fails leaves none.
openAuditWorld()

describe('what an event holds', () => {
  async function eventsOf(recordId: string): Promise<AuditEvent[]> {
    return (
      await world.repositories.auditEvents.list(world.organizationId, { recordType: 'constituent', recordId }, { page: 1, limit: 100 })
    ).items
  }

  test('an update names the fields it changed, never their values', async () => {
    const constituent = await aConstituent({ email: 'ana@example.org' })
    await u().constituents.update.execute(world.admin, constituent.id, { phone: '+15035550177', addressCity: 'Portland' })
    const [update] = (await eventsOf(constituent.id)).filter((e) => e.action === 'update')
    expect(update?.fields).toEqual(['addressCity', 'phone'])
    expect(JSON.stringify(await eventsOf(constituent.id))).not.toContain('5035550177')
    expect(JSON.stringify(await eventsOf(constituent.id))).not.toContain('Portland')
  })

  test('a read names the personal details the caller saw; a caller who saw none is not recorded', async () => {
    const constituent = await aConstituent({ email: 'bo@example.org', dateOfBirth: '1980-02-03' })
    const staff = await world.member('staff')
    const contactReader = await world.member('staff', { profiles: ['email_phone_communicator'] })
    await u().constituents.get.execute(staff, constituent.id)
    await u().constituents.get.execute(contactReader, constituent.id)
    await u().constituents.get.execute(world.admin, constituent.id)
    const reads = (await eventsOf(constituent.id)).filter((e) => e.action === 'read')
    expect(reads.map((e) => [e.memberId, e.fields])).toEqual(
      expect.arrayContaining([
        [contactReader.memberId, ['phone', 'email']],
        [world.admin.memberId, ['phone', 'email', 'dateOfBirth']],
      ]),
    )
    expect(reads).toHaveLength(2)
  })

  test('a search records one event per constituent shown, in one transaction', async () => {
    const lastName = `Q${randomUUID().slice(0, 6)}`
    // Each with a phone of its own: a shared one would show each to the next one's creator, a read of its own.
    const people = [
      await aConstituent({ lastName, phone: '+15035550111' }),
      await aConstituent({ lastName, phone: '+15035550112' }),
      await aConstituent({ lastName, phone: '+15035550113' }),
    ]
    const page = await u().constituents.search.execute(world.admin, lastName, { page: 1, limit: 2 })
    const read = await Promise.all(people.map(async (p) => (await eventsOf(p.id)).filter((e) => e.action === 'read').length))
    expect(read.filter((n) => n === 1)).toHaveLength(page.items.length)
    expect(read.reduce((a, b) => a + b)).toBe(2)
  })

  test('resolving a match records the read of both people it answers, with the resolution', async () => {
    const phone = '+15035550188'
    const first = await aConstituent({ phone })
    const second = await aConstituent({ phone })
    const match = (await u().constituents.listMatches.execute(world.admin, 'OPEN', { page: 1, limit: 100 })).items.find(
      (m) => m.constituentId === second.id,
    )
    const readsBefore = async (id: string) => (await eventsOf(id)).filter((e) => e.action === 'read').length
    const [firstBefore, secondBefore] = [await readsBefore(first.id), await readsBefore(second.id)]
    await u().constituents.resolve.execute(world.admin, match!.id, { action: 'DISMISS' })
    expect([await readsBefore(first.id), await readsBefore(second.id)]).toEqual([firstBefore + 1, secondBefore + 1])
  })

  test('a write that fails leaves no event', async () => {
    const before = (await world.repositories.auditEvents.list(world.organizationId, {}, { page: 1, limit: 1 })).total
    const other = await world.otherOrganization()
    await failureOf(other.useCases.members.update.execute(other.admin, other.admin.memberId, { role: 'staff' }), ConflictError)
    expect((await world.repositories.auditEvents.list(other.organizationId, { action: 'update' }, { page: 1, limit: 1 })).total).toBe(0)
    expect((await world.repositories.auditEvents.list(world.organizationId, {}, { page: 1, limit: 1 })).total).toBe(before)
  })
})
