import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { EVERY_ORGANIZATION } from '../../../src/application/ports/repositories/interaction-repository'
import type { Interaction } from '../../../src/domain/needs/interaction'
import type { Need } from '../../../src/domain/needs/need'
import type { Organization } from '../../../src/domain/organizations/organization'
import { aConstituent, aHousehold, anAuditEvent, aNeed } from '../../support/builders'
import type { ContractContext } from './contract-context'
import { minute } from './contract-support'

/**
 * The counts behind the send limits (docs/api/access.md "Tokens", docs/api/organization.md "SMS", docs/api/needs.md "Public
 * intake"): audit events, texts to one number, mails to one mailbox; in one organization, or in every one (the
 * deployment's cap on what one person is sent).
 */
export function describeSendLimitsContract({ read, write, anOrganizationWithPartner, insertNeeds }: ContractContext): void {
  describe('send limits', () => {
    test('tallies the audit events matching a filter: how many, and the oldest', async () => {
      const { organization } = await anOrganizationWithPartner()
      const { organization: other } = await anOrganizationWithPartner()
      const memberId = randomUUID()
      await write((r) =>
        r.auditEvents.append([
          anAuditEvent({ organizationId: organization.id, memberId, action: 'send_sms', at: minute(1) }),
          anAuditEvent({ organizationId: organization.id, memberId, action: 'send_sms', at: minute(3) }),
          anAuditEvent({ organizationId: organization.id, memberId, action: 'send_sms', at: minute(5) }),
          anAuditEvent({ organizationId: organization.id, memberId, action: 'read', at: minute(4) }),
          anAuditEvent({ organizationId: organization.id, action: 'send_sms', at: minute(4) }),
          anAuditEvent({ organizationId: other.id, memberId, action: 'send_sms', at: minute(4) }),
        ]),
      )
      const tally = (since: Date) => read().auditEvents.tally(organization.id, { memberId, action: 'send_sms', since })
      expect(await tally(minute(2))).toEqual({ count: 2, oldest: minute(3) })
      expect(await tally(minute(0))).toEqual({ count: 3, oldest: minute(1) })
      expect(await tally(minute(6))).toEqual({ count: 0 })
    })

    test("tallies an organization's outbound texts since a time on the needs of everyone with a phone number", async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const { organization: other, partner: otherPartner } = await anOrganizationWithPartner()
      const phone = `+1555${Math.floor(1_000_000 + Math.random() * 8_999_999)}`
      const people = async (o: Organization, ...phones: string[]) => {
        const household = aHousehold({ organizationId: o.id })
        const constituents = phones.map((p) => aConstituent({ organizationId: o.id, householdId: household.id, phone: p }))
        await write(async (r) => {
          await r.constituents.insertHousehold(household)
          for (const constituent of constituents) await r.constituents.insert(constituent)
        })
        return constituents
      }
      const [parent, child, neighbour] = await people(organization, phone, phone, '+15550000001')
      const [elsewhere] = await people(other, phone)
      const needs = [
        aNeed({ organizationId: organization.id, partnerId: partner.id, constituentId: parent!.id }),
        aNeed({ organizationId: organization.id, partnerId: partner.id, constituentId: child!.id }),
        aNeed({ organizationId: organization.id, partnerId: partner.id, constituentId: neighbour!.id }),
        aNeed({ organizationId: other.id, partnerId: otherPartner.id, constituentId: elsewhere!.id }),
      ]
      await insertNeeds(...needs)
      const text = (need: Need, createdAt: Date, overrides: Partial<Interaction> = {}): Interaction => ({
        id: randomUUID(),
        organizationId: need.organizationId,
        needId: need.id,
        constituentId: need.constituentId!,
        channel: 'sms',
        direction: 'outbound',
        senderIdentifier: 'system',
        content: 'hello',
        createdAt,
        ...overrides,
      })
      const [parentNeed, childNeed, neighbourNeed, otherNeed] = needs
      await write(async (r) => {
        for (const interaction of [
          text(parentNeed!, minute(1)),
          text(parentNeed!, minute(3)),
          text(childNeed!, minute(4)),
          text(parentNeed!, minute(5), { direction: 'inbound' }),
          text(parentNeed!, minute(5), { channel: 'note' }),
          text(neighbourNeed!, minute(5)),
          text(otherNeed!, minute(5)),
        ])
          await r.interactions.insert(interaction)
      })
      expect(await read().interactions.tallyTextsTo(organization.id, phone, minute(2))).toEqual({ count: 2, oldest: minute(3) })
      expect(await read().interactions.tallyTextsTo(organization.id, phone, minute(0))).toEqual({ count: 3, oldest: minute(1) })
      expect(await read().interactions.tallyTextsTo(organization.id, '+15550000002', minute(0))).toEqual({ count: 0 })
      expect(await read().interactions.tallyTextsTo(other.id, phone, minute(0))).toEqual({ count: 1, oldest: minute(5) })
      expect(await read().interactions.tallyTextsTo(EVERY_ORGANIZATION, phone, minute(0))).toEqual({ count: 4, oldest: minute(1) })
      expect(await read().interactions.tallyTextsTo(EVERY_ORGANIZATION, phone, minute(4))).toEqual({ count: 2, oldest: minute(4) })
    })

    test("tallies an organization's outbound mails since a time on the needs of everyone with an address of one mailbox", async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const { organization: other, partner: otherPartner } = await anOrganizationWithPartner()
      const name = `person-${randomUUID().slice(0, 8)}`
      const email = `${name}@example.org`
      const needOf = async (o: Organization, partnerId: string, address: string) => {
        const household = aHousehold({ organizationId: o.id })
        const constituent = aConstituent({ organizationId: o.id, householdId: household.id, email: address })
        const need = aNeed({ organizationId: o.id, partnerId, constituentId: constituent.id })
        await write(async (r) => {
          await r.constituents.insertHousehold(household)
          await r.constituents.insert(constituent)
        })
        await insertNeeds(need)
        return need
      }
      const mine = await needOf(organization, partner.id, email)
      const shouted = await needOf(organization, partner.id, email.toUpperCase())
      const tagged = await needOf(organization, partner.id, `"${name}"+news@example.org`)
      const someoneElse = await needOf(organization, partner.id, 'someone.else@example.org')
      const elsewhere = await needOf(other, otherPartner.id, email)
      const mail = (need: Need, createdAt: Date, overrides: Partial<Interaction> = {}): Interaction => ({
        id: randomUUID(),
        organizationId: need.organizationId,
        needId: need.id,
        constituentId: need.constituentId!,
        channel: 'email',
        direction: 'outbound',
        senderIdentifier: 'system',
        content: 'hello',
        createdAt,
        ...overrides,
      })
      await write(async (r) => {
        for (const interaction of [
          mail(mine, minute(1)),
          mail(shouted, minute(3)),
          mail(tagged, minute(5)),
          mail(mine, minute(4), { channel: 'sms' }),
          mail(mine, minute(4), { direction: 'inbound' }),
          mail(someoneElse, minute(4)),
          mail(elsewhere, minute(4)),
        ])
          await r.interactions.insert(interaction)
      })
      expect(await read().interactions.tallyMailsTo(organization.id, email, minute(0))).toEqual({ count: 3, oldest: minute(1) })
      expect(await read().interactions.tallyMailsTo(organization.id, `${name.toUpperCase()}+other@example.org`, minute(2))).toEqual({
        count: 2,
        oldest: minute(3),
      })
      expect(await read().interactions.tallyMailsTo(organization.id, 'nobody@example.org', minute(0))).toEqual({ count: 0 })
      expect(await read().interactions.tallyMailsTo(EVERY_ORGANIZATION, email, minute(0))).toEqual({ count: 4, oldest: minute(1) })
      expect(await read().interactions.tallyMailsTo(EVERY_ORGANIZATION, `"${name}"@Example.org`, minute(4))).toEqual({
        count: 2,
        oldest: minute(4),
      })
    })
  })
}
