import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { Repositories } from '../../../src/application/ports/repositories'
import { anAuditEvent } from '../../support/builders'
import type { ContractContext } from './contract-context'
import { ALL, minute, presentKeys } from './contract-support'

/** The audit trail's part of the repository contract: append, list with filters, the retention purge. */
export function describeAuditContract({ read, write, anOrganizationWithPartner }: ContractContext): void {
  describe('audit events', () => {
    test('appends many in one call and lists them newest first, every field as written, absent ones absent', async () => {
      const { organization } = await anOrganizationWithPartner()
      const full = anAuditEvent({
        organizationId: organization.id,
        memberId: randomUUID(),
        requestId: 'req-1',
        fields: ['phone', 'email'],
        at: minute(2),
      })
      const bare = anAuditEvent({ organizationId: organization.id, action: 'receive_sms', recordType: 'interaction', at: minute(1) })
      await write((r) => r.auditEvents.append([bare, full]))

      const listed = await read().auditEvents.list(organization.id, {}, ALL)
      expect(listed).toEqual({ items: [full, bare], total: 2 })
      expect(presentKeys(listed.items[1], ['memberId', 'requestId', 'fields'])).toEqual([])
    })

    test('appends a page of reads and more (27 events, some without a member) in order, each as written', async () => {
      const { organization } = await anOrganizationWithPartner()
      const events = Array.from({ length: 27 }, (_, i) =>
        anAuditEvent({
          organizationId: organization.id,
          action: 'read',
          recordType: 'constituent',
          at: minute(i),
          ...(i % 5 === 0 ? {} : { memberId: randomUUID(), fields: ['phone'] }),
        }),
      )
      await write((r) => r.auditEvents.append(events))

      expect(await read().auditEvents.list(organization.id, {}, ALL)).toEqual({ items: [...events].reverse(), total: 27 })
    })

    test('appending nothing is no error', async () => {
      const { organization } = await anOrganizationWithPartner()
      await write((r) => r.auditEvents.append([]))
      expect((await read().auditEvents.list(organization.id, {}, ALL)).total).toBe(0)
    })

    test('filters by member, record, action and time (since inclusive, until exclusive), pages with the total', async () => {
      const { organization } = await anOrganizationWithPartner()
      const memberId = randomUUID()
      const recordId = randomUUID()
      const events = [
        anAuditEvent({ organizationId: organization.id, memberId, at: minute(1) }),
        anAuditEvent({ organizationId: organization.id, memberId, recordType: 'constituent', recordId, action: 'read', at: minute(2) }),
        anAuditEvent({ organizationId: organization.id, recordType: 'constituent', recordId, at: minute(3) }),
        anAuditEvent({ organizationId: organization.id, action: 'login', recordType: 'member', at: minute(4) }),
      ]
      await write((r) => r.auditEvents.append(events))
      const [e1, e2, e3, e4] = events
      const list = (filter: Parameters<Repositories['auditEvents']['list']>[1], page = ALL) =>
        read().auditEvents.list(organization.id, filter, page)

      expect((await list({ memberId })).items).toEqual([e2!, e1!])
      expect((await list({ recordType: 'constituent', recordId })).items).toEqual([e3!, e2!])
      expect((await list({ recordType: 'member' })).items).toEqual([e4!])
      expect((await list({ action: 'read' })).items).toEqual([e2!])
      expect((await list({ since: minute(2), until: minute(4) })).items).toEqual([e3!, e2!])
      expect(await list({}, { page: 2, limit: 3 })).toEqual({ items: [e1!], total: 4 })
    })

    test("never lists another organization's events", async () => {
      const { organization: a } = await anOrganizationWithPartner()
      const { organization: b } = await anOrganizationWithPartner()
      const event = anAuditEvent({ organizationId: a.id })
      await write((r) => r.auditEvents.append([event]))
      expect(await read().auditEvents.list(b.id, {}, ALL)).toEqual({ items: [], total: 0 })
      expect(await read().auditEvents.list(b.id, { recordType: event.recordType, recordId: event.recordId }, ALL)).toEqual({
        items: [],
        total: 0,
      })
    })

    test('an event written in a transaction that rolls back is not kept', async () => {
      const { organization } = await anOrganizationWithPartner()
      const undone = write(async (r) => {
        await r.auditEvents.append([anAuditEvent({ organizationId: organization.id })])
        throw new Error('undo')
      })
      await expect(undone).rejects.toThrow('undo')
      expect((await read().auditEvents.list(organization.id, {}, ALL)).total).toBe(0)
    })

    test("purge deletes at most `limit` of one organization's events older than `before`, and says how many", async () => {
      const { organization: a } = await anOrganizationWithPartner()
      const { organization: b } = await anOrganizationWithPartner()
      const old = [1, 2, 3].map((n) => anAuditEvent({ organizationId: a.id, at: minute(n) }))
      const kept = anAuditEvent({ organizationId: a.id, at: minute(10) })
      const otherOrganization = anAuditEvent({ organizationId: b.id, at: minute(1) })
      await write((r) => r.auditEvents.append([...old, kept, otherOrganization]))

      expect(await write((r) => r.auditEvents.purge(a.id, minute(10), 2))).toBe(2)
      expect(await write((r) => r.auditEvents.purge(a.id, minute(10), 2))).toBe(1)
      expect(await write((r) => r.auditEvents.purge(a.id, minute(10), 2))).toBe(0)
      expect((await read().auditEvents.list(a.id, {}, ALL)).items).toEqual([kept])
      expect((await read().auditEvents.list(b.id, {}, ALL)).items).toEqual([otherOrganization])
    })

    test("lists every organization's audit retention, absent when it kept the default", async () => {
      const { organization: chosen } = await anOrganizationWithPartner({ auditRetentionDays: 30 })
      const { organization: byDefault } = await anOrganizationWithPartner()
      const retentions = await read().organizations.auditRetentions()
      expect(retentions).toContainEqual({ organizationId: chosen.id, auditRetentionDays: 30 })
      expect(retentions).toContainEqual({ organizationId: byDefault.id })
    })
  })
}
