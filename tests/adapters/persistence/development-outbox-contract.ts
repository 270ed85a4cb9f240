import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { UnsentMessage } from '../../../src/domain/messaging/development-outbox'
import type { ContractContext } from './contract-context'
import { minute } from './contract-support'

function aMessage(organizationId: string, overrides: Partial<UnsentMessage> = {}): UnsentMessage {
  return {
    id: randomUUID(),
    organizationId,
    channel: 'email',
    kind: 'invitation',
    recipient: 'ana@example.org',
    subject: 'Join us',
    body: 'Hello',
    createdAt: minute(0),
    ...overrides,
  }
}

/** Long before every other message of the suite: a purge up to then removes these alone. */
const LONG_AGO = new Date('2001-01-01T00:00:00.000Z')

/** The development outbox (docs/api/organization.md "Development outbox"): per organization, erased by recipient, purged by age. */
export function describeDevelopmentOutboxContract({ read, write, anOrganizationWithPartner }: ContractContext): void {
  describe('development outbox', () => {
    test('lists an organization’s messages newest first, paged, a text without a subject; another’s are not seen', async () => {
      const { organization } = await anOrganizationWithPartner()
      const { organization: other } = await anOrganizationWithPartner()
      const older = aMessage(organization.id, { createdAt: minute(1) })
      const { subject: _, ...text } = aMessage(organization.id, {
        channel: 'sms',
        kind: 'sms',
        recipient: '+15035550101',
        createdAt: minute(2),
      })
      await write(async (r) => {
        for (const message of [older, text, aMessage(other.id)]) await r.developmentOutbox.insert(message)
      })
      expect(await read().developmentOutbox.list(organization.id, { page: 1, limit: 10 })).toEqual({ items: [text, older], total: 2 })
      expect(await read().developmentOutbox.list(organization.id, { page: 2, limit: 1 })).toEqual({ items: [older], total: 2 })
    })

    test('forgets the messages to a phone or an email (any case) in the organization only', async () => {
      const { organization } = await anOrganizationWithPartner()
      const { organization: other } = await anOrganizationWithPartner()
      const toEmail = aMessage(organization.id, { recipient: 'Ana@Example.org' })
      const toPhone = aMessage(organization.id, { channel: 'sms', kind: 'sms', recipient: '+15035550101', subject: undefined })
      const toSomeoneElse = aMessage(organization.id, { recipient: 'ben@example.org' })
      const elsewhere = aMessage(other.id)
      await write(async (r) => {
        for (const message of [toEmail, toPhone, toSomeoneElse, elsewhere]) await r.developmentOutbox.insert(message)
      })
      const forgotten = await write((r) =>
        r.developmentOutbox.forgetMessagesTo(organization.id, { phone: '+15035550101', email: 'ana@example.org' }),
      )
      expect(forgotten).toBe(2)
      expect((await read().developmentOutbox.list(organization.id, { page: 1, limit: 10 })).items.map((m) => m.id)).toEqual([
        toSomeoneElse.id,
      ])
      expect((await read().developmentOutbox.list(other.id, { page: 1, limit: 10 })).total).toBe(1)
      expect(await write((r) => r.developmentOutbox.forgetMessagesTo(organization.id, {}))).toBe(0)
    })

    test('purges the messages kept at a time or before, any organization’s, a batch at a time', async () => {
      const { organization } = await anOrganizationWithPartner()
      const old = [1, 2, 3].map((n) => aMessage(organization.id, { createdAt: new Date(LONG_AGO.getTime() - n * 1000) }))
      const recent = aMessage(organization.id, { createdAt: new Date(LONG_AGO.getTime() + 1000) })
      await write(async (r) => {
        for (const message of [...old, recent]) await r.developmentOutbox.insert(message)
      })
      expect(await write((r) => r.developmentOutbox.purge(LONG_AGO, 2))).toBe(2)
      expect(await write((r) => r.developmentOutbox.purge(LONG_AGO, 2))).toBe(1)
      expect((await read().developmentOutbox.list(organization.id, { page: 1, limit: 10 })).items.map((m) => m.id)).toEqual([recent.id])
    })
  })
}
