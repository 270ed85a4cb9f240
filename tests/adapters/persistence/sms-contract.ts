import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import { ConflictError } from '../../../src/domain/errors'
import type { Interaction } from '../../../src/domain/needs/interaction'
import type { Need } from '../../../src/domain/needs/need'
import { aConstituent, aHousehold, aNeed, anOrganization } from '../../support/builders'
import type { ContractContext } from './contract-context'
import { ascendingIds, minute, presentKeys } from './contract-support'

/** The error a promise rejects with; fails the test when it resolves. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection, but the promise resolved')
}

/** An E.164 number no other test of the suite's shared store uses (organization numbers are unique store-wide). */
const aPhone = () => `+1${2_000_000_000 + Math.floor(Math.random() * 7_999_999_999)}`

function anInteraction(overrides: Partial<Interaction> & Pick<Interaction, 'organizationId'>): Interaction {
  return { id: randomUUID(), channel: 'sms', senderIdentifier: '+15550001111', createdAt: minute(0), ...overrides }
}

const SMS_FIELDS = ['partnerId', 'needId', 'constituentId', 'direction', 'content', 'deliveryStatus', 'providerMessageId']

/** The SMS part of the repository contract: numbers, phones, newest needs, SMS interactions, opt-outs. */
export function describeSmsContract({ read, write, anOrganizationWithPartner, insertNeeds }: ContractContext): void {
  /** Constituents of the organization, all in one household, committed. */
  async function insertConstituents(organizationId: string, ...overrides: Array<Partial<Constituent>>) {
    const household = aHousehold({ organizationId })
    const constituents = overrides.map((o) => aConstituent({ organizationId, householdId: household.id, ...o }))
    await write(async (r) => {
      await r.constituents.insertHousehold(household)
      for (const constituent of constituents) await r.constituents.insert(constituent)
    })
    return constituents
  }

  describe('texting (SMS)', () => {
    describe('organization phone numbers', () => {
      test('finds an organization by its SMS number, and none by an unknown one', async () => {
        const phoneNumber = aPhone()
        const { organization } = await anOrganizationWithPartner({ phoneNumber })
        await anOrganizationWithPartner()

        expect(await read().organizations.findByPhoneNumber(phoneNumber)).toEqual(organization)
        expect(await read().organizations.findByPhoneNumber(aPhone())).toBeUndefined()
      })

      test('a number another organization has is a ConflictError on insert, and the transaction keeps nothing', async () => {
        const { organization: taken } = await anOrganizationWithPartner({ phoneNumber: aPhone() })
        const bystander = anOrganization()
        const second = anOrganization({ phoneNumber: taken.phoneNumber })

        const error = await rejectionOf(
          write(async (r) => {
            await r.organizations.insert(bystander)
            await r.organizations.insert(second)
          }),
        )

        expect(error).toBeInstanceOf(ConflictError)
        expect((error as ConflictError).message).toMatch(/phone number/i)
        expect(await read().organizations.findByPhoneNumber(taken.phoneNumber!)).toEqual(taken)
        expect(await read().organizations.findById(second.id)).toBeUndefined()
        expect(await read().organizations.findById(bystander.id)).toBeUndefined()
      })

      test('a number another organization has is a ConflictError on update, and the transaction keeps nothing', async () => {
        const { organization: taken } = await anOrganizationWithPartner({ phoneNumber: aPhone() })
        const { organization } = await anOrganizationWithPartner()
        const { organization: bystander } = await anOrganizationWithPartner()

        const error = await rejectionOf(
          write(async (r) => {
            await r.organizations.update({ ...bystander, name: 'Never saved' })
            await r.organizations.update({ ...organization, phoneNumber: taken.phoneNumber })
          }),
        )

        expect(error).toBeInstanceOf(ConflictError)
        expect((error as ConflictError).message).toMatch(/phone number/i)
        expect(await read().organizations.findById(organization.id)).toEqual(organization)
        expect(await read().organizations.findById(bystander.id)).toEqual(bystander)
        expect(await read().organizations.findByPhoneNumber(taken.phoneNumber!)).toEqual(taken)
      })

      test('a changed or cleared number is found under the new one only, and the old one is free for another organization', async () => {
        const [first, second] = [aPhone(), aPhone()]
        const { organization: a } = await anOrganizationWithPartner({ phoneNumber: first })
        const { organization: b } = await anOrganizationWithPartner()

        await write((r) => r.organizations.update({ ...a, phoneNumber: second }))
        expect(await read().organizations.findByPhoneNumber(first)).toBeUndefined()
        expect(await read().organizations.findByPhoneNumber(second)).toEqual({ ...a, phoneNumber: second })

        await write(async (r) => {
          await r.organizations.update({ ...b, phoneNumber: first })
          // Keeping its own number is no conflict.
          await r.organizations.update({ ...b, phoneNumber: first, name: 'Renamed' })
        })
        expect(await read().organizations.findByPhoneNumber(first)).toEqual({ ...b, phoneNumber: first, name: 'Renamed' })

        const { phoneNumber: _phoneNumber, ...withoutNumber } = a
        await write((r) => r.organizations.update(withoutNumber))
        expect(await read().organizations.findByPhoneNumber(second)).toBeUndefined()
        expect(presentKeys(await read().organizations.findById(a.id), ['phoneNumber'])).toEqual([])
        const { organization: c } = await anOrganizationWithPartner({ phoneNumber: second })
        expect(await read().organizations.findByPhoneNumber(second)).toEqual(c)
      })
    })

    describe('constituents by phone', () => {
      test('finds the organization’s constituents with the phone, newest first, id as tie-break', async () => {
        const { organization } = await anOrganizationWithPartner()
        const { organization: foreignOrganization } = await anOrganizationWithPartner()
        const phone = '+15557654321'
        const [low, high] = ascendingIds(2) as [string, string]
        // Oldest first, so an adapter answering in insertion order fails.
        const [older, tieLow, tieHigh] = await insertConstituents(
          organization.id,
          { phone, firstName: 'Older', createdAt: minute(1) },
          { id: low, phone, createdAt: minute(2) },
          { id: high, phone, lastName: 'High', createdAt: minute(2) },
          { phone: '+15557654320', createdAt: minute(3) },
          { firstName: 'No phone', createdAt: minute(4) },
        )
        const [foreign] = await insertConstituents(foreignOrganization.id, { phone, createdAt: minute(5) })

        expect(await read().constituents.findByPhone(organization.id, phone)).toEqual([tieHigh!, tieLow!, older!])
        expect(await read().constituents.findByPhone(foreignOrganization.id, phone)).toEqual([foreign!])
        expect(await read().constituents.findByPhone(organization.id, '+15550000000')).toEqual([])
      })

      test('follows updates and deletes', async () => {
        const { organization } = await anOrganizationWithPartner()
        const [phone, newPhone] = ['+15557654321', '+15557654322']
        const [moved, deleted, kept] = await insertConstituents(
          organization.id,
          { phone, createdAt: minute(1) },
          { phone, createdAt: minute(2) },
          { phone, createdAt: minute(3) },
        )

        await write(async (r) => {
          await r.constituents.update({ ...moved!, phone: newPhone })
          await r.constituents.delete(organization.id, deleted!.id)
        })

        expect(await read().constituents.findByPhone(organization.id, phone)).toEqual([kept!])
        expect(await read().constituents.findByPhone(organization.id, newPhone)).toEqual([{ ...moved!, phone: newPhone }])
      })
    })

    describe('newest needs of constituents', () => {
      test('answers the needs of any of the constituents, newest first, id as tie-break, whatever their status', async () => {
        const { organization, partner } = await anOrganizationWithPartner()
        const org = organization.id
        const [a, b, c] = await insertConstituents(org, { firstName: 'A' }, { firstName: 'B' }, { firstName: 'C' })
        const needOf = (constituent: Constituent, overrides: Partial<Need>) =>
          aNeed({ organizationId: org, partnerId: partner.id, constituentId: constituent.id, householdId: constituent.householdId, ...overrides })
        const [low, high] = ascendingIds(2) as [string, string]
        const a1 = needOf(a!, { createdAt: minute(1) })
        const aTie = needOf(a!, { id: low, status: 'RESOLVED', createdAt: minute(2) })
        const bTie = needOf(b!, { id: high, status: 'IN_PROGRESS', createdAt: minute(2) })
        const b3 = needOf(b!, { createdAt: minute(3) })
        await insertNeeds(
          a1,
          aTie,
          bTie,
          b3,
          needOf(c!, { createdAt: minute(9) }),
          aNeed({ organizationId: org, partnerId: partner.id, createdAt: minute(9) }),
        )

        expect(await read().needs.newestOfConstituents(org, [a!.id, b!.id])).toEqual([b3, bTie, aTie, a1])
        expect(await read().needs.newestOfConstituents(org, [a!.id])).toEqual([aTie, a1])
        expect(await read().needs.newestOfConstituents(org, [])).toEqual([])
        expect(await read().needs.newestOfConstituents(org, [randomUUID()])).toEqual([])
      })

      test('answers at most the 20 newest', async () => {
        const { organization, partner } = await anOrganizationWithPartner()
        const [constituent] = await insertConstituents(organization.id, { firstName: 'Busy' })
        const needs = Array.from({ length: 21 }, (_, i) =>
          aNeed({ organizationId: organization.id, partnerId: partner.id, constituentId: constituent!.id, householdId: constituent!.householdId, createdAt: minute(i) }),
        )
        await insertNeeds(...needs)

        expect(await read().needs.newestOfConstituents(organization.id, [constituent!.id])).toEqual(needs.slice(1).reverse())
      })

      test('never answers another organization’s needs', async () => {
        const { organization, partner } = await anOrganizationWithPartner()
        const { organization: other } = await anOrganizationWithPartner()
        const [constituent] = await insertConstituents(organization.id, { firstName: 'Ana' })
        const need = aNeed({ organizationId: organization.id, partnerId: partner.id, constituentId: constituent!.id, householdId: constituent!.householdId })
        await insertNeeds(need)

        expect(await read().needs.newestOfConstituents(other.id, [constituent!.id])).toEqual([])
        expect(await read().needs.newestOfConstituents(organization.id, [constituent!.id])).toEqual([need])
      })
    })

    describe('SMS interactions', () => {
      test('keeps the SMS fields through insert, findById and listByNeed', async () => {
        const { organization, partner } = await anOrganizationWithPartner()
        const [constituent] = await insertConstituents(organization.id, { phone: '+15557654321' })
        const need = aNeed({ organizationId: organization.id, partnerId: partner.id, constituentId: constituent!.id, householdId: constituent!.householdId })
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
        const unattached = anInteraction({ organizationId: organization.id, constituentId: constituent!.id, direction: 'inbound', content: 'STOP' })
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
        const ofA = anInteraction({ organizationId: a.id, direction: 'outbound', deliveryStatus: 'sent', providerMessageId: `SM${randomUUID()}` })
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
        expect(await read().interactions.findById(organization.id, queued.id)).toEqual({ ...queued, deliveryStatus: 'sent', providerMessageId: sid })
        expect(await read().interactions.findByProviderMessageId(sid)).toEqual({ ...queued, deliveryStatus: 'sent', providerMessageId: sid })

        await write((r) => r.interactions.setDelivery(organization.id, queued.id, 'delivered', undefined))
        expect(await read().interactions.findById(organization.id, queued.id)).toEqual({ ...queued, deliveryStatus: 'delivered', providerMessageId: sid })
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
        expect(await read().smsOptOuts.isOptedOut(a.id, phone)).toBe(false)

        await write((r) => r.smsOptOuts.optOut(a.id, phone, minute(1)))
        expect(await read().smsOptOuts.isOptedOut(a.id, phone)).toBe(true)
        expect(await read().smsOptOuts.isOptedOut(b.id, phone)).toBe(false)
        expect(await read().smsOptOuts.isOptedOut(a.id, other)).toBe(false)

        await write((r) => r.smsOptOuts.optOut(b.id, phone, minute(2)))
        await write((r) => r.smsOptOuts.optIn(a.id, phone))
        expect(await read().smsOptOuts.isOptedOut(a.id, phone)).toBe(false)
        expect(await read().smsOptOuts.isOptedOut(b.id, phone)).toBe(true)

        await write((r) => r.smsOptOuts.optOut(a.id, phone, minute(3)))
        expect(await read().smsOptOuts.isOptedOut(a.id, phone)).toBe(true)
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

        expect(await read().smsOptOuts.isOptedOut(organization.id, phone)).toBe(true)
        expect(await read().smsOptOuts.isOptedOut(organization.id, never)).toBe(false)
        // One opt-in undoes any number of opt-outs.
        await write((r) => r.smsOptOuts.optIn(organization.id, phone))
        expect(await read().smsOptOuts.isOptedOut(organization.id, phone)).toBe(false)
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

        expect(await read().smsOptOuts.isOptedOut(organization.id, phone)).toBe(false)
      })
    })
  })
}
