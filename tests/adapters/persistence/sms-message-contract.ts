import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { Interaction } from '../../../src/domain/needs/interaction'
import { aNeed } from '../../support/builders'
import type { ContractContext } from './contract-context'
import { minute } from './contract-support'

const FROM = '+15550002222'
const OTHER = '+15550003333'

function aText(organizationId: string, overrides: Partial<Interaction> = {}): Interaction {
  return {
    id: randomUUID(),
    organizationId,
    channel: 'sms',
    direction: 'inbound',
    senderIdentifier: FROM,
    content: 'Hello?',
    createdAt: minute(0),
    ...overrides,
  }
}

/** Texts nobody has picked up (docs/api/organization.md "Messages"), what staff send and how texts fail, and needs marked for attention. */
export function describeSmsMessageContract({ read, write, anOrganizationWithPartner, insertNeeds }: ContractContext): void {
  describe('messages on no need', () => {
    test('keeps who sent a text, why it failed and whom a reply went to', async () => {
      const { organization } = await anOrganizationWithPartner()
      const reply = aText(organization.id, {
        direction: 'outbound',
        senderIdentifier: '+15550001000',
        recipient: FROM,
        sentByMemberId: randomUUID(),
        deliveryStatus: 'queued',
      })
      await write((r) => r.interactions.insert(reply))
      await write((r) => r.interactions.setDelivery(organization.id, reply.id, 'failed', undefined, 'The number is unknown'))

      expect(await read().interactions.findById(organization.id, reply.id)).toEqual({
        ...reply,
        deliveryStatus: 'failed',
        deliveryError: 'The number is unknown',
      })
    })

    test('setDelivery answers the need the text is on, and none for a text on no need', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const need = aNeed({ organizationId: organization.id, partnerId: partner.id })
      await insertNeeds(need)
      const onNeed = aText(organization.id, { direction: 'outbound', needId: need.id, partnerId: partner.id })
      const onNone = aText(organization.id, { direction: 'outbound' })
      await write(async (r) => {
        await r.interactions.insert(onNeed)
        await r.interactions.insert(onNone)
      })

      expect(await write((r) => r.interactions.setDelivery(organization.id, onNeed.id, 'sent', undefined))).toEqual({ needId: need.id })
      expect(await write((r) => r.interactions.setDelivery(organization.id, onNone.id, 'sent', undefined))).toEqual({})
    })

    test('lists the inbound texts on no need, newest first, a page at a time, of the organization only', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const { organization: other } = await anOrganizationWithPartner()
      const need = aNeed({ organizationId: organization.id, partnerId: partner.id })
      await insertNeeds(need)
      const first = aText(organization.id, { createdAt: minute(1) })
      const second = aText(organization.id, { senderIdentifier: OTHER, createdAt: minute(2) })
      const third = aText(organization.id, { createdAt: minute(3) })
      await write(async (r) => {
        for (const text of [first, second, third]) await r.interactions.insert(text)
        await r.interactions.insert(aText(organization.id, { needId: need.id, partnerId: partner.id }))
        await r.interactions.insert(aText(organization.id, { direction: 'outbound', recipient: FROM }))
        await r.interactions.insert(aText(organization.id, { channel: 'note', direction: undefined }))
        await r.interactions.insert(aText(other.id))
      })

      expect(await read().interactions.listUnattached(organization.id, { page: 1, limit: 2 })).toEqual({ items: [third, second], total: 3 })
      expect(await read().interactions.listUnattached(organization.id, { page: 2, limit: 2 })).toEqual({ items: [first], total: 3 })
    })

    test('attachTextsOf puts every text from and to the number on the need, and none of another number or organization', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const { organization: other } = await anOrganizationWithPartner()
      const need = aNeed({ organizationId: organization.id, partnerId: partner.id })
      await insertNeeds(need)
      const older = aText(organization.id, { createdAt: minute(1) })
      const reply = aText(organization.id, {
        direction: 'outbound',
        senderIdentifier: '+15550001000',
        recipient: FROM,
        createdAt: minute(2),
      })
      const newer = aText(organization.id, { createdAt: minute(3) })
      const ofAnother = aText(organization.id, { senderIdentifier: OTHER })
      const elsewhere = aText(other.id)
      await write(async (r) => {
        for (const text of [newer, older, reply, ofAnother, elsewhere]) await r.interactions.insert(text)
      })
      const constituentId = randomUUID()

      const to = { needId: need.id, partnerId: partner.id, constituentId }
      expect(await write((r) => r.interactions.attachTextsOf(organization.id, FROM, to))).toEqual([older.id, reply.id, newer.id])
      expect((await read().interactions.listByNeed(organization.id, need.id, { page: 1, limit: 10 })).items).toEqual(
        [older, reply, newer].map((text) => ({ ...text, ...to })),
      )
      expect((await read().interactions.listUnattached(organization.id, { page: 1, limit: 10 })).items).toEqual([ofAnother])
      expect(await read().interactions.findById(other.id, elsewhere.id)).toEqual(elsewhere)
      expect(await write((r) => r.interactions.attachTextsOf(organization.id, FROM, to))).toEqual([])
    })

    test('tallyRepliesTo counts the replies on no need to the number since a time', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const need = aNeed({ organizationId: organization.id, partnerId: partner.id })
      await insertNeeds(need)
      const reply = (createdAt: Date, more: Partial<Interaction> = {}) =>
        aText(organization.id, { direction: 'outbound', senderIdentifier: 'system', recipient: FROM, createdAt, ...more })
      await write(async (r) => {
        await r.interactions.insert(reply(minute(1)))
        await r.interactions.insert(reply(minute(5)))
        await r.interactions.insert(reply(minute(6)))
        await r.interactions.insert(reply(minute(7), { needId: need.id, partnerId: partner.id }))
        await r.interactions.insert(reply(minute(8), { recipient: OTHER }))
      })

      expect(await read().interactions.tallyRepliesTo(organization.id, FROM, minute(2))).toEqual({ count: 2, oldest: minute(5) })
      expect(await read().interactions.tallyRepliesTo(organization.id, FROM, minute(9))).toEqual({ count: 0 })
    })
  })

  describe('needs marked for attention', () => {
    test('setAttention marks and clears a need, and the list filters by it', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const { organization: other } = await anOrganizationWithPartner()
      const marked = aNeed({ organizationId: organization.id, partnerId: partner.id, status: 'RESOLVED', createdAt: minute(1) })
      const plain = aNeed({ organizationId: organization.id, partnerId: partner.id, createdAt: minute(2) })
      await insertNeeds(marked, plain)
      await write((r) => r.needs.setAttention(organization.id, marked.id, true))
      await write((r) => r.needs.setAttention(other.id, plain.id, true))

      expect(await read().needs.findById(organization.id, marked.id)).toEqual({ ...marked, needsAttention: true })
      expect(await read().needs.findById(organization.id, plain.id)).toEqual(plain)
      const page = { page: 1, limit: 10 }
      expect(await read().needs.list(organization.id, { needsAttention: true }, page)).toEqual({
        items: [{ ...marked, needsAttention: true }],
        total: 1,
      })
      expect((await read().needs.list(organization.id, { needsAttention: true, statuses: ['NEW'] }, page)).items).toEqual([])

      await write((r) => r.needs.setAttention(organization.id, marked.id, false))
      expect(await read().needs.findById(organization.id, marked.id)).toEqual(marked)
      expect(await read().needs.list(organization.id, { needsAttention: true }, page)).toEqual({ items: [], total: 0 })
    })
  })
}
