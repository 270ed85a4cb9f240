import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { erasedConstituent } from '../../../src/domain/constituents/erasure'
import { matchKeysOf } from '../../../src/domain/constituents/matching'
import { parseConstituentQuery } from '../../../src/domain/constituents/search'
import type { OutboxMessage } from '../../../src/domain/messaging/outbox'
import { aContact, anAuditEvent, anInteraction, aNeed } from '../../support/builders'
import type { ContractContext } from './contract-context'
import { ALL, ids, minute } from './contract-support'
import { aMessage } from './outbox-support'

/** A pending text of the organization to `to`, recorded by `interactionId`. */
function aText(organizationId: string, to: string, interactionId: string, overrides: Partial<OutboxMessage> = {}): OutboxMessage {
  return aMessage({
    organizationId,
    payload: { channel: 'sms', sms: { from: '+15550001111', to, body: 'Your box is ready', interactionId } },
    ...overrides,
  })
}

/** What erasing a person and the retention of people and needs' text ask of a store (docs/privacy.md). */
export function describeErasureContract({
  read,
  write,
  anOrganizationWithPartner,
  insertConstituents,
  insertNeeds,
}: ContractContext): void {
  describe('erasure', () => {
    test('an erased record keeps its ids and times and when it was erased, and no search, key or phone finds it any more', async () => {
      const { organization } = await anOrganizationWithPartner()
      const contact = aContact({ firstName: 'Zebulon', lastName: 'Quartermaine', phone: '+15039871234', email: 'zeb@example.org' })
      const [person] = await insertConstituents(organization.id, { ...contact, createdAt: minute(1), updatedAt: minute(1) })
      const erased = erasedConstituent(person!, minute(5))
      await write((r) => r.constituents.update(erased))

      expect(await read().constituents.findById(organization.id, person!.id)).toEqual(erased)
      for (const query of ['Zebulon', 'quarter', '9871234', '+1 503 987', 'zeb@example.org']) {
        const found = await read().constituents.search(organization.id, parseConstituentQuery(query), ALL)
        expect({ query, found: found.items }).toEqual({ query, found: [] })
      }
      expect(await read().constituents.findByMatchKeys(organization.id, matchKeysOf(contact), randomUUID(), 10)).toEqual([])
      expect(await read().constituents.findByPhone(organization.id, contact.phone)).toEqual([])
      expect(ids((await read().constituents.search(organization.id, parseConstituentQuery(''), ALL)).items)).toEqual([person!.id])
    })

    test('forgets the sender of the inbound texts of a person, on its needs or on none, and no one else’s', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const other = await anOrganizationWithPartner()
      const [person, neighbour] = await insertConstituents(organization.id, { phone: '+15039871234' }, { phone: '+15039870000' })
      const need = aNeed({ organizationId: organization.id, partnerId: partner.id, constituentId: person!.id })
      await insertNeeds(need)
      const text = (overrides: Parameters<typeof anInteraction>[0]) =>
        anInteraction({ channel: 'sms', direction: 'inbound', senderIdentifier: '+15039871234', content: 'hello', ...overrides })
      const onNeed = text({ organizationId: organization.id, needId: need.id })
      const unattached = text({ organizationId: organization.id, constituentId: person!.id })
      const outbound = text({ organizationId: organization.id, needId: need.id, direction: 'outbound', senderIdentifier: '+15550001111' })
      const reply = text({ organizationId: organization.id, needId: need.id, direction: 'outbound', recipient: '+15039871234' })
      const neighbours = text({ organizationId: organization.id, constituentId: neighbour!.id, senderIdentifier: '+15039870000' })
      const elsewhere = text({ organizationId: other.organization.id, constituentId: person!.id })
      await write(async (r) => {
        for (const interaction of [onNeed, unattached, outbound, reply, neighbours, elsewhere]) await r.interactions.insert(interaction)
      })

      await write((r) => r.interactions.forgetInboundSenders(organization.id, person!.id, [need.id]))

      const sender = async (organizationId: string, id: string) =>
        (await read().interactions.findById(organizationId, id))!.senderIdentifier
      expect(await sender(organization.id, onNeed.id)).toBe('')
      expect(await sender(organization.id, unattached.id)).toBe('')
      expect(await sender(organization.id, outbound.id)).toBe('+15550001111')
      expect(await sender(organization.id, neighbours.id)).toBe('+15039870000')
      expect(await sender(other.organization.id, elsewhere.id)).toBe('+15039871234')
      expect((await read().interactions.findById(organization.id, onNeed.id))!.content).toBe('hello')
      expect(await read().interactions.findById(organization.id, reply.id)).not.toHaveProperty('recipient')
    })

    test('takes the organization’s texts to a number and mails to an address out of the outbox, sent or not, and answers the texts that never left', async () => {
      const { organization } = await anOrganizationWithPartner()
      const other = await anOrganizationWithPartner()
      const phone = '+15039871234'
      const pending = aText(organization.id, phone, randomUUID())
      const claimed = aText(organization.id, phone, randomUUID(), { status: 'sending', lockedUntil: minute(9), inFlightSince: minute(1) })
      const sent = aText(organization.id, phone, randomUUID(), { status: 'sent', sentAt: minute(1) })
      const mailed = aMessage({
        organizationId: organization.id,
        payload: {
          channel: 'email',
          email: { template: 'requester_confirmation', to: 'Zeb@Example.org', subject: 'Your request REQ-1001', text: 'Keep it.' },
        },
        status: 'sent',
        sentAt: minute(1),
      })
      const toAnother = aText(organization.id, '+15039870000', randomUUID())
      const ofAnother = aText(other.organization.id, phone, randomUUID())
      const anotherMail = aMessage({ organizationId: organization.id })
      await write(async (r) => {
        for (const message of [pending, claimed, sent, mailed, toAnother, ofAnother, anotherMail]) await r.outbox.enqueue(message)
      })

      const unsent = await write((r) => r.outbox.forgetMessagesTo(organization.id, { phone, email: 'zeb@example.org' }))

      const interactionOf = (m: OutboxMessage) => (m.payload.channel === 'sms' ? m.payload.sms.interactionId : '')
      expect(unsent.sort()).toEqual([interactionOf(pending), interactionOf(claimed)].sort())
      for (const gone of [pending, claimed, sent, mailed]) expect(await read().outbox.findById(gone.id)).toBeUndefined()
      for (const kept of [toAnother, ofAnother, anotherMail]) expect(await read().outbox.findById(kept.id)).toEqual(kept)
      expect(await write((r) => r.outbox.forgetMessagesTo(organization.id, {}))).toEqual([])
    })
  })

  describe('retention', () => {
    test('finds the people not erased whose record and needs are all older than a time, at most as many as asked', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const at = (n: number) => ({ createdAt: minute(n), updatedAt: minute(n) })
      const [idle, idleWithOldNeed, activeNeed, _recent, erased] = await insertConstituents(
        organization.id,
        { firstName: 'Idle', ...at(1) },
        { firstName: 'Old need', ...at(1) },
        { firstName: 'Recent need', ...at(1) },
        { firstName: 'Recent', ...at(20) },
        { firstName: 'Erased', ...at(1) },
      )
      await write((r) => r.constituents.update(erasedConstituent(erased!, minute(2))))
      const need = (constituentId: string, n: number) =>
        aNeed({ organizationId: organization.id, partnerId: partner.id, constituentId, ...at(n) })
      await insertNeeds(need(idleWithOldNeed!.id, 3), need(activeNeed!.id, 3), need(activeNeed!.id, 15))

      const found = await read().constituents.idleSince(organization.id, minute(10), 10)
      expect(ids(found).sort()).toEqual([idle!.id, idleWithOldNeed!.id].sort())
      expect(found.find((c) => c.id === idle!.id)).toEqual(idle)
      expect(await read().constituents.idleSince(organization.id, minute(10), 1)).toHaveLength(1)
      expect(await read().constituents.idleSince(organization.id, minute(1), 10)).toEqual([])
    })

    test('clears the customFields of resolved needs unchanged since before a time, once, until the need is written again', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const need = (status: 'RESOLVED' | 'IN_PROGRESS', n: number) =>
        aNeed({
          organizationId: organization.id,
          partnerId: partner.id,
          status,
          customFields: { description: 'a story' },
          updatedAt: minute(n),
        })
      const [old, recent, open] = [need('RESOLVED', 1), need('RESOLVED', 20), need('IN_PROGRESS', 1)]
      await insertNeeds(old, recent, open)

      expect(await write((r) => r.needs.clearResolvedText(organization.id, minute(10), minute(30), 10))).toEqual([old.id])
      const cleared = { ...old, customFields: {} }
      // Read by id, by reference number and in a page alike, without retention's mark.
      expect(await read().needs.findById(organization.id, old.id)).toEqual(cleared)
      expect(await read().needs.findByReferenceNumber(organization.id, old.referenceNumber)).toEqual(cleared)
      expect((await read().needs.list(organization.id, { statuses: ['RESOLVED'] }, { page: 1, limit: 10 })).items).toContainEqual(cleared)
      expect(await read().needs.findById(organization.id, recent.id)).toEqual(recent)
      expect(await read().needs.findById(organization.id, open.id)).toEqual(open)
      expect(await write((r) => r.needs.clearResolvedText(organization.id, minute(10), minute(31), 10))).toEqual([])

      // Reopened, written to and resolved again: its new text is retention's once more.
      const written = { ...old, customFields: { description: 'a new story' }, updatedAt: minute(2) }
      await write((r) => r.needs.update(written))
      expect(await write((r) => r.needs.clearResolvedText(organization.id, minute(10), minute(32), 10))).toEqual([old.id])
    })

    test('empties the content of the interactions of the needs named, and no other', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const [cleared, kept] = [
        aNeed({ organizationId: organization.id, partnerId: partner.id }),
        aNeed({ organizationId: organization.id, partnerId: partner.id }),
      ]
      await insertNeeds(cleared, kept)
      const note = anInteraction({ organizationId: organization.id, needId: cleared.id, content: 'lives with her sister' })
      const text = anInteraction({
        organizationId: organization.id,
        needId: cleared.id,
        channel: 'sms',
        direction: 'inbound',
        content: 'hi',
      })
      const other = anInteraction({ organizationId: organization.id, needId: kept.id, content: 'keep me' })
      await write(async (r) => {
        for (const interaction of [note, text, other]) await r.interactions.insert(interaction)
      })

      await write((r) => r.interactions.clearContentOfNeeds(organization.id, [cleared.id]))

      const { content: _n, ...noteWithout } = note
      const { content: _t, ...textWithout } = text
      expect(await read().interactions.findById(organization.id, note.id)).toEqual(noteWithout)
      expect(await read().interactions.findById(organization.id, text.id)).toEqual(textWithout)
      expect(await read().interactions.findById(organization.id, other.id)).toEqual(other)
    })

    test('keeps the retention settings, lists the organizations that chose one, and clears them', async () => {
      const { organization } = await anOrganizationWithPartner({ constituentRetentionDays: 365, needTextRetentionDays: 90 })
      const { organization: none } = await anOrganizationWithPartner()

      expect(await read().organizations.findById(organization.id)).toEqual(organization)
      const retentions = await read().organizations.dataRetentions()
      expect(retentions).toContainEqual({ organizationId: organization.id, constituentRetentionDays: 365, needTextRetentionDays: 90 })
      expect(retentions.map((r) => r.organizationId)).not.toContain(none.id)

      const { constituentRetentionDays: _c, ...keepsNeedText } = organization
      await write((r) => r.organizations.update(keepsNeedText))
      expect(await read().organizations.findById(organization.id)).toEqual(keepsNeedText)
      expect(await read().organizations.dataRetentions()).toContainEqual({ organizationId: organization.id, needTextRetentionDays: 90 })
    })

    test('gives an organization’s retention run to one claim per period, however many ask at once', async () => {
      const { organization } = await anOrganizationWithPartner({ needTextRetentionDays: 30 })
      const claim = (at: number, lastRunBefore: number) =>
        write((r) => r.organizations.claimRetentionRun(organization.id, minute(at), minute(lastRunBefore)))

      expect((await Promise.all([claim(10, 0), claim(10, 0), claim(10, 0)])).filter(Boolean)).toHaveLength(1)
      expect(await claim(11, 5)).toBe(false)
      expect(await claim(20, 10)).toBe(true)
      expect(await write((r) => r.organizations.claimRetentionRun(randomUUID(), minute(30), minute(25)))).toBe(false)
      // The claim is the repository's own: the organization read back is unchanged.
      expect(await read().organizations.findById(organization.id)).toEqual(organization)
    })

    test('an audit event keeps its counts', async () => {
      const { organization } = await anOrganizationWithPartner()
      const run = anAuditEvent({
        organizationId: organization.id,
        action: 'apply_retention',
        recordType: 'organization',
        recordId: organization.id,
        counts: { constituentsErased: 3, needTextsCleared: 0 },
      })
      await write((r) => r.auditEvents.append([run]))
      expect((await read().auditEvents.list(organization.id, { action: 'apply_retention' }, ALL)).items).toEqual([run])
    })
  })
}
