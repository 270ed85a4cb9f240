import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { ConflictError } from '../../../src/domain/errors'
import type { Interaction } from '../../../src/domain/needs/interaction'
import { aNeed } from '../../support/builders'
import type { ContractContext } from './contract-context'
import { minute, presentKeys } from './contract-support'

function anInteraction(overrides: Partial<Interaction> & Pick<Interaction, 'organizationId'>): Interaction {
  return { id: randomUUID(), channel: 'sms', senderIdentifier: '+15550001111', createdAt: minute(0), ...overrides }
}

const SMS_FIELDS = ['partnerId', 'needId', 'constituentId', 'direction', 'content', 'deliveryStatus', 'providerMessageId']

/** Texts kept as interactions: their delivery statuses, early ones included, and opt-outs. */
export function describeSmsInteractionContract({
  read,
  write,
  anOrganizationWithPartner,
  insertNeeds,
  insertConstituents,
}: ContractContext): void {
  describe('texting (SMS)', () => {
    describe('SMS interactions', () => {
      test('keeps the SMS fields through insert, findById and listByNeed', async () => {
        const { organization, partner } = await anOrganizationWithPartner()
        const [constituent] = await insertConstituents(organization.id, { phone: '+15557654321' })
        const need = aNeed({
          organizationId: organization.id,
          partnerId: partner.id,
          constituentId: constituent!.id,
          householdId: constituent!.householdId,
        })
        await insertNeeds(need)
        const outbound = anInteraction({
          organizationId: organization.id,
          partnerId: partner.id,
          needId: need.id,
          constituentId: constituent!.id,
          direction: 'outbound',
          senderIdentifier: '+15550001111',
          content: 'Votre colis est prêt ✓ 🙏',
          deliveryStatus: 'queued',
          providerMessageId: `SM${randomUUID()}`,
          createdAt: minute(3),
        })
        await write((r) => r.interactions.insert(outbound))

        expect(await read().interactions.findById(organization.id, outbound.id)).toEqual(outbound)
        expect((await read().interactions.listByNeed(organization.id, need.id, { page: 1, limit: 100 })).items).toEqual([outbound])
      })

      test('leaves absent fields absent; an interaction on no need is found by id', async () => {
        const { organization } = await anOrganizationWithPartner()
        const [constituent] = await insertConstituents(organization.id, { phone: '+15557654321' })
        const unattached = anInteraction({
          organizationId: organization.id,
          constituentId: constituent!.id,
          direction: 'inbound',
          content: 'STOP',
        })
        const note = anInteraction({ organizationId: organization.id, channel: 'note', senderIdentifier: 'staff@example.org' })
        await write(async (r) => {
          await r.interactions.insert(unattached)
          await r.interactions.insert(note)
        })

        const foundUnattached = await read().interactions.findById(organization.id, unattached.id)
        expect(foundUnattached).toEqual(unattached)
        expect(presentKeys(foundUnattached, SMS_FIELDS)).toEqual(['constituentId', 'direction', 'content'])
        const foundNote = await read().interactions.findById(organization.id, note.id)
        expect(foundNote).toEqual(note)
        expect(presentKeys(foundNote, SMS_FIELDS)).toEqual([])
      })

      test('findById never answers another organization’s interaction, nor an unknown id', async () => {
        const { organization: a } = await anOrganizationWithPartner()
        const { organization: b } = await anOrganizationWithPartner()
        const interaction = anInteraction({ organizationId: a.id, content: 'private' })
        await write((r) => r.interactions.insert(interaction))

        expect(await read().interactions.findById(b.id, interaction.id)).toBeUndefined()
        expect(await read().interactions.findById(a.id, randomUUID())).toBeUndefined()
        expect(await read().interactions.findById(a.id, interaction.id)).toEqual(interaction)
      })

      test('finds an interaction by the provider’s message id across organizations', async () => {
        const { organization: a } = await anOrganizationWithPartner()
        const { organization: b } = await anOrganizationWithPartner()
        const ofA = anInteraction({
          organizationId: a.id,
          direction: 'outbound',
          deliveryStatus: 'sent',
          providerMessageId: `SM${randomUUID()}`,
        })
        const ofB = anInteraction({ organizationId: b.id, direction: 'inbound', providerMessageId: `SM${randomUUID()}` })
        await write(async (r) => {
          await r.interactions.insert(ofA)
          await r.interactions.insert(ofB)
          await r.interactions.insert(anInteraction({ organizationId: a.id, direction: 'outbound', deliveryStatus: 'queued' }))
        })

        expect(await read().interactions.findByProviderMessageId(ofA.providerMessageId!)).toEqual(ofA)
        expect(await read().interactions.findByProviderMessageId(ofB.providerMessageId!)).toEqual(ofB)
        expect(await read().interactions.findByProviderMessageId(`SM${randomUUID()}`)).toBeUndefined()
      })

      test('a second interaction with a provider’s message id already kept is a conflict, and leaves nothing behind', async () => {
        const { organization } = await anOrganizationWithPartner()
        const sid = `SM${randomUUID()}`
        const first = anInteraction({ organizationId: organization.id, direction: 'inbound', providerMessageId: sid })
        await write((r) => r.interactions.insert(first))
        const again = anInteraction({ organizationId: organization.id, direction: 'inbound', providerMessageId: sid })

        await expect(write((r) => r.interactions.insert(again))).rejects.toBeInstanceOf(ConflictError)
        expect(await read().interactions.findById(organization.id, again.id)).toBeUndefined()
        expect(await read().interactions.findByProviderMessageId(sid)).toEqual(first)
      })

      test('setDelivery records the status and the provider id, keeping the id when none is given', async () => {
        const { organization } = await anOrganizationWithPartner()
        const queued = anInteraction({ organizationId: organization.id, direction: 'outbound', deliveryStatus: 'queued' })
        const bystander = anInteraction({ organizationId: organization.id, direction: 'outbound', deliveryStatus: 'queued' })
        await write(async (r) => {
          await r.interactions.insert(queued)
          await r.interactions.insert(bystander)
        })
        const sid = `SM${randomUUID()}`

        await write((r) => r.interactions.setDelivery(organization.id, queued.id, 'sent', sid))
        expect(await read().interactions.findById(organization.id, queued.id)).toEqual({
          ...queued,
          deliveryStatus: 'sent',
          providerMessageId: sid,
        })
        expect(await read().interactions.findByProviderMessageId(sid)).toEqual({
          ...queued,
          deliveryStatus: 'sent',
          providerMessageId: sid,
        })

        await write((r) => r.interactions.setDelivery(organization.id, queued.id, 'delivered', undefined))
        expect(await read().interactions.findById(organization.id, queued.id)).toEqual({
          ...queued,
          deliveryStatus: 'delivered',
          providerMessageId: sid,
        })
        expect(await read().interactions.findById(organization.id, bystander.id)).toEqual(bystander)
      })

      test('setDelivery never changes another organization’s interaction; an unknown id is no error', async () => {
        const { organization: a } = await anOrganizationWithPartner()
        const { organization: b } = await anOrganizationWithPartner()
        const interaction = anInteraction({ organizationId: a.id, direction: 'outbound', deliveryStatus: 'queued' })
        await write((r) => r.interactions.insert(interaction))
        const [hijack, ghost] = [`SM${randomUUID()}`, `SM${randomUUID()}`]

        await write(async (r) => {
          await r.interactions.setDelivery(b.id, interaction.id, 'failed', hijack)
          await r.interactions.setDelivery(a.id, randomUUID(), 'sent', ghost)
        })

        expect(await read().interactions.findById(a.id, interaction.id)).toEqual(interaction)
        expect(await read().interactions.findByProviderMessageId(hijack)).toBeUndefined()
        expect(await read().interactions.findByProviderMessageId(ghost)).toBeUndefined()
      })
    })

    describe('early delivery statuses', () => {
      test('a status kept for a provider message is taken once; the latest kept wins', async () => {
        const sid = `SM${randomUUID()}`
        const at = new Date('2026-11-22T09:00:00.000Z')
        await write((r) => r.interactions.rememberEarlyStatus(sid, 'sent', at))
        await write((r) => r.interactions.rememberEarlyStatus(sid, 'delivered', new Date(at.getTime() + 1000)))
        expect(await write((r) => r.interactions.takeEarlyStatus(sid))).toBe('delivered')
        expect(await write((r) => r.interactions.takeEarlyStatus(sid))).toBeUndefined()
        expect(await write((r) => r.interactions.takeEarlyStatus(`SM${randomUUID()}`))).toBeUndefined()
      })

      test('statuses older than a day are forgotten when another arrives', async () => {
        const [old, fresh] = [`SM${randomUUID()}`, `SM${randomUUID()}`]
        const at = new Date('2026-11-22T09:00:00.000Z')
        await write((r) => r.interactions.rememberEarlyStatus(old, 'delivered', at))
        await write((r) => r.interactions.rememberEarlyStatus(fresh, 'failed', new Date(at.getTime() + 25 * 3_600_000)))
        expect(await write((r) => r.interactions.takeEarlyStatus(old))).toBeUndefined()
        expect(await write((r) => r.interactions.takeEarlyStatus(fresh))).toBe('failed')
      })
    })

    describe('SMS opt-outs', () => {
      test('opts a number out and back in, per organization and per number', async () => {
        const { organization: a } = await anOrganizationWithPartner()
        const { organization: b } = await anOrganizationWithPartner()
        const [phone, other] = ['+15557654321', '+15557654322']
        expect(await read().smsOptOuts.optedOutAt(a.id, phone)).toBeUndefined()

        await write((r) => r.smsOptOuts.optOut(a.id, phone, minute(1)))
        expect(await read().smsOptOuts.optedOutAt(a.id, phone)).toEqual(minute(1))
        expect(await read().smsOptOuts.optedOutAt(b.id, phone)).toBeUndefined()
        expect(await read().smsOptOuts.optedOutAt(a.id, other)).toBeUndefined()

        await write((r) => r.smsOptOuts.optOut(b.id, phone, minute(2)))
        await write((r) => r.smsOptOuts.optIn(a.id, phone))
        expect(await read().smsOptOuts.optedOutAt(a.id, phone)).toBeUndefined()
        expect(await read().smsOptOuts.optedOutAt(b.id, phone)).toEqual(minute(2))

        await write((r) => r.smsOptOuts.optOut(a.id, phone, minute(3)))
        expect(await read().smsOptOuts.optedOutAt(a.id, phone)).toEqual(minute(3))
      })

      test('opting out twice, or in without an opt-out, is no error', async () => {
        const { organization } = await anOrganizationWithPartner()
        const [phone, never] = ['+15557654321', '+15557654323']

        await write(async (r) => {
          await r.smsOptOuts.optOut(organization.id, phone, minute(1))
          await r.smsOptOuts.optOut(organization.id, phone, minute(2))
          await r.smsOptOuts.optIn(organization.id, never)
        })
        await write((r) => r.smsOptOuts.optOut(organization.id, phone, minute(3)))

        // The first opt-out's date is kept: STOP sent again does not move it.
        expect(await read().smsOptOuts.optedOutAt(organization.id, phone)).toEqual(minute(1))
        expect(await read().smsOptOuts.optedOutAt(organization.id, never)).toBeUndefined()
        // One opt-in undoes any number of opt-outs.
        await write((r) => r.smsOptOuts.optIn(organization.id, phone))
        expect(await read().smsOptOuts.optedOutAt(organization.id, phone)).toBeUndefined()
      })

      test('answers HELP once per number and organization until `since` passes the last answer', async () => {
        const { organization: a } = await anOrganizationWithPartner()
        const { organization: b } = await anOrganizationWithPartner()
        const [phone, other] = ['+15557654321', '+15557654322']
        const claim = (org: string, number: string, at: number, since: number) =>
          write((r) => r.smsOptOuts.claimHelpAnswer(org, number, minute(at), minute(since)))

        expect(await claim(a.id, phone, 10, 0)).toBe(true)
        // Another number, another organization: their own turns.
        expect(await claim(a.id, other, 11, 0)).toBe(true)
        expect(await claim(b.id, phone, 11, 0)).toBe(true)
        // Answered at minute 10: not again while `since` is before it.
        expect(await claim(a.id, phone, 12, 9)).toBe(false)
        expect(await claim(a.id, phone, 20, 9)).toBe(false)
        // Once the last answer is at or before `since`, the turn is taken again, from then.
        expect(await claim(a.id, phone, 30, 10)).toBe(true)
        expect(await claim(a.id, phone, 31, 29)).toBe(false)
        expect(await claim(a.id, phone, 40, 30)).toBe(true)
      })

      test('two claims at once take the turn once', async () => {
        const { organization } = await anOrganizationWithPartner()
        const phone = '+15557654321'

        const taken = await Promise.all(
          [1, 2, 3].map(() => write((r) => r.smsOptOuts.claimHelpAnswer(organization.id, phone, minute(5), minute(0)))),
        )

        expect(taken.filter(Boolean)).toHaveLength(1)
      })

      test('an opt-out in a transaction that rolls back is not kept', async () => {
        const { organization } = await anOrganizationWithPartner()
        const phone = '+15557654321'
        const failure = new Error('interaction insert failed')

        await expect(
          write(async (r) => {
            await r.smsOptOuts.optOut(organization.id, phone, minute(1))
            throw failure
          }),
        ).rejects.toBe(failure)

        expect(await read().smsOptOuts.optedOutAt(organization.id, phone)).toBeUndefined()
      })
    })
  })
}
