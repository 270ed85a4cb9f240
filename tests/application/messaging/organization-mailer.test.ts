import { beforeEach, describe, expect, test } from 'bun:test'
import { OrganizationMailer } from '../../../src/application/messaging/organization-mailer'
import { ProviderError } from '../../../src/application/ports/provider-error'
import type { EmailMessage } from '../../../src/domain/messaging/email'
import { failureOf } from '../failure-of'
import { createMailWorld, refused, type MailWorld } from '../mail-world'

const POSTMARK_KEY = 'pm-server-token-0000-1234'
const message: EmailMessage = { template: 'invitation', to: 'someone@example.org', subject: 'Hello', text: 'A message body' }

/** The outbox message a mail of `organizationId` leaves as. */
const outboxMail = (organizationId: string) => ({ outboxId: 'outbox-message-1', organizationId })

let world: MailWorld
let mailer: OrganizationMailer
beforeEach(async () => {
  world = await createMailWorld()
  mailer = world.container.get(OrganizationMailer)
})

const configurePostmark = () =>
  world.useCases.organizations.updateEmail.execute(world.admin, {
    provider: 'postmark',
    apiKey: POSTMARK_KEY,
    fromEmail: 'help@harbor.example.org',
    fromName: 'Harbor',
  })

describe('OrganizationMailer', () => {
  describe("with the organization's email settings", () => {
    beforeEach(configurePostmark)

    test('sends through that provider with the opened key and the sender address, and answers its message id', async () => {
      expect(await mailer.send(outboxMail(world.organizationId), message)).toEqual({ messageId: 'postmark-1' })
      expect(world.senders.postmark.delivered).toEqual([
        { settings: { provider: 'postmark', apiKey: POSTMARK_KEY, fromEmail: 'help@harbor.example.org', fromName: 'Harbor' }, message },
      ])
    })

    test('uses no other provider and not the fallback', async () => {
      await mailer.send(outboxMail(world.organizationId), message)
      for (const provider of ['smtp', 'ses', 'sendgrid'] as const) expect(world.senders[provider].attempts).toEqual([])
      expect(world.fallbackMail()).toEqual([])
    })

    test("lets the provider's ProviderError through", async () => {
      world.senders.postmark.failNext(refused('Inactive recipient'))
      const error = await failureOf(mailer.send(outboxMail(world.organizationId), message), ProviderError)
      expect(error.message).toBe('Inactive recipient')
      expect(error.retryable).toBe(false)
    })

    test('follows a change of settings at once', async () => {
      await world.useCases.organizations.updateEmail.execute(world.admin, {
        provider: 'sendgrid',
        apiKey: 'SG.new-key',
        fromEmail: 'news@harbor.example.org',
      })
      await mailer.send(outboxMail(world.organizationId), message)
      expect(world.senders.sendgrid.delivered[0]!.settings).toEqual({
        provider: 'sendgrid',
        apiKey: 'SG.new-key',
        fromEmail: 'news@harbor.example.org',
      })
      expect(world.senders.postmark.attempts).toEqual([])
    })
  })

  describe('without email settings', () => {
    test('hands the whole message to the fallback, with its outbox id and organization, and calls no provider', async () => {
      expect(await mailer.send(outboxMail(world.organizationId), message)).toEqual({})
      expect(world.fallbackMail()).toEqual([{ ...outboxMail(world.organizationId), ...message }])
      for (const sender of Object.values(world.senders)) expect(sender.attempts).toEqual([])
    })

    test("another organization's settings are not used", async () => {
      await configurePostmark()
      const other = await world.otherOrganization()
      await mailer.send(outboxMail(other.organizationId), message)
      expect(world.senders.postmark.attempts).toEqual([])
      expect(world.fallbackMail()).toEqual([{ ...outboxMail(other.organizationId), ...message }])
    })
  })
})
