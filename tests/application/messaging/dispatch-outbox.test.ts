import { beforeEach, describe, expect, test } from 'bun:test'
import { Outbox } from '../../../src/application/messaging/outbox'
import type { EmailMessage } from '../../../src/domain/messaging/email'
import { MAX_ATTEMPTS, type OutboxMessage } from '../../../src/domain/messaging/outbox'
import { PORTS } from '../../../src/main/container'
import { createMailWorld, refused, retryable, type MailWorld } from '../mail-world'

const SECOND = 1000
const message = (to = 'someone@example.org'): EmailMessage => ({ template: 'invitation', to, subject: 'Hello', text: 'A message body' })

let world: MailWorld
beforeEach(async () => {
  world = await createMailWorld()
  await world.useCases.organizations.updateEmail.execute(world.admin, {
    provider: 'postmark',
    apiKey: 'pm-server-token-0000-1234',
    fromEmail: 'help@harbor.example.org',
  })
})

const postmark = () => world.senders.postmark
const unitOfWork = () => world.container.get(PORTS.unitOfWork)
/** How long a claim holds (OUTBOX_LEASE_MS). */
const leaseMs = () => world.container.get(PORTS.dispatchOptions).leaseMs

/** Puts an email in the outbox in its own committed transaction and answers its id. */
function enqueue(email = message(), organizationId = world.organizationId): Promise<string> {
  return unitOfWork().run((r) => world.container.get(Outbox).email(r, organizationId, email))
}

const stored = async (id: string): Promise<OutboxMessage> => (await world.repositories.outbox.findById(id))!

describe('DispatchOutbox', () => {
  test("sends a due message through the organization's provider once and records it sent", async () => {
    const id = await enqueue()
    expect(await stored(id)).toMatchObject({ status: 'pending', attempts: 0 })
    expect(await world.dispatch()).toBe(1)
    expect(postmark().delivered.map((d) => d.message)).toEqual([message()])
    expect(await stored(id)).toMatchObject({ status: 'sent', sentAt: world.clock.now(), providerMessageId: 'postmark-1' })
    world.clock.advance(leaseMs() * 10)
    expect(await world.dispatch()).toBe(0)
    expect(postmark().attempts).toHaveLength(1)
  })

  test("sends every due message of a pass, each through its own organization (or the fallback, told the message's id)", async () => {
    const other = await world.otherOrganization()
    const ours = await enqueue(message('a@example.org'))
    const theirs = await enqueue(message('b@example.org'), other.organizationId)
    expect(await world.dispatch()).toBe(2)
    expect(postmark().delivered.map((d) => d.message.to)).toEqual(['a@example.org'])
    expect(world.fallbackMail()).toEqual([{ outboxId: theirs, organizationId: other.organizationId, ...message('b@example.org') }])
    expect((await stored(ours)).status).toBe('sent')
    expect((await stored(theirs)).status).toBe('sent')
    expect((await stored(theirs)).providerMessageId).toBeUndefined()
  })

  test('uses the settings in force when it sends, not when the message was queued', async () => {
    const other = await world.otherOrganization()
    await enqueue(message(), other.organizationId)
    await other.useCases.organizations.updateEmail.execute(other.admin, {
      provider: 'sendgrid',
      apiKey: 'SG.key',
      fromEmail: 'o@example.org',
    })
    await world.dispatch()
    expect(world.senders.sendgrid.delivered).toHaveLength(1)
    expect(world.fallbackMail()).toEqual([])
  })

  test('sends nothing for a transaction that rolled back', async () => {
    const rolledBack = unitOfWork().run(async (r) => {
      await world.container.get(Outbox).email(r, world.organizationId, message())
      throw new Error('the change failed')
    })
    await expect(rolledBack).rejects.toThrow('the change failed')
    expect(await world.dispatch()).toBe(0)
    expect(postmark().attempts).toEqual([])
  })

  describe('a retryable failure', () => {
    test('puts the message back with its reason, due 2 s later, and it is sent then', async () => {
      const id = await enqueue()
      postmark().failNext(retryable('Too many requests (429)'))
      expect(await world.dispatch()).toBe(1)
      expect(await stored(id)).toMatchObject({
        status: 'pending',
        attempts: 1,
        lastError: 'Too many requests (429)',
        nextAttemptAt: new Date(world.clock.now().getTime() + 2 * SECOND),
      })
      expect(await world.dispatch()).toBe(0)
      world.clock.advance(2 * SECOND - 1)
      expect(await world.dispatch()).toBe(0)
      world.clock.advance(1)
      expect(await world.dispatch()).toBe(1)
      expect(await stored(id)).toMatchObject({ status: 'sent', providerMessageId: 'postmark-1' })
      expect(postmark().attempts).toHaveLength(2)
    })

    test('backs off 2, 4, 8 and 16 s between the tries', async () => {
      const id = await enqueue()
      postmark().failNext(retryable(), 4)
      await world.dispatch()
      for (const [failures, delay] of [
        [1, 2],
        [2, 4],
        [3, 8],
        [4, 16],
      ] as const) {
        expect(await stored(id)).toMatchObject({ status: 'pending', attempts: failures })
        world.clock.advance(delay * SECOND - 1)
        expect(await world.dispatch()).toBe(0)
        world.clock.advance(1)
        expect(await world.dispatch()).toBe(1)
      }
      expect(await stored(id)).toMatchObject({ status: 'sent' })
      expect(postmark().attempts).toHaveLength(5)
      expect(postmark().delivered).toHaveLength(1)
    })

    test(`gives up after ${MAX_ATTEMPTS} tries: the message is failed with the last reason and never tried again`, async () => {
      const id = await enqueue()
      postmark().failNext(retryable('Service unavailable (503)'), 100)
      for (let i = 0; i < 10; i++) {
        await world.dispatch()
        world.clock.advance(60 * SECOND)
      }
      expect(MAX_ATTEMPTS).toBe(5)
      expect(postmark().attempts).toHaveLength(5)
      expect(await stored(id)).toMatchObject({ status: 'failed', attempts: 5, lastError: 'Service unavailable (503)' })
      const warning = world.logs.find((e) => e.message === 'outbox message failed for good')
      expect(warning).toMatchObject({ level: 'warn', fields: { messageId: id, attempts: 5 } })
    })

    test('each failed try and each sent message is counted for monitoring, the last try as final', async () => {
      const metrics = world.container.get(PORTS.metrics)
      const count = async (sample: string) =>
        Number(
          (await metrics.render())
            .split('\n')
            .find((l) => l.startsWith(`${sample} `))
            ?.split(' ')[1] ?? 0,
        )
      await enqueue()
      postmark().failNext(retryable('Service unavailable (503)'), MAX_ATTEMPTS)
      for (let i = 0; i < 6; i++) {
        await world.dispatch()
        world.clock.advance(60 * SECOND)
      }
      expect(await count('intake_message_failures_total{channel="email",final="false"}')).toBe(MAX_ATTEMPTS - 1)
      expect(await count('intake_message_failures_total{channel="email",final="true"}')).toBe(1)
      await enqueue()
      await world.dispatch()
      expect(await count('intake_messages_sent_total{channel="email"}')).toBe(1)
    })

    test('an unexpected error (not a ProviderError) is retried too, and logged', async () => {
      const id = await enqueue()
      postmark().failNext(new Error('socket hang up'))
      await world.dispatch()
      expect(await stored(id)).toMatchObject({ status: 'pending', attempts: 1, lastError: 'unexpected error while sending' })
      expect(world.logs.some((e) => e.level === 'error' && e.fields.messageId === id)).toBe(true)
      world.clock.advance(2 * SECOND)
      expect(await world.dispatch()).toBe(1)
      expect((await stored(id)).status).toBe('sent')
    })
  })

  test('a refusal that is not retryable fails the message at once, and it is never tried again', async () => {
    const id = await enqueue()
    postmark().failNext(refused('Invalid sender signature (422)'))
    expect(await world.dispatch()).toBe(1)
    expect(await stored(id)).toMatchObject({ status: 'failed', attempts: 1, lastError: 'Invalid sender signature (422)' })
    world.clock.advance(leaseMs() * 10)
    expect(await world.dispatch()).toBe(0)
    expect(postmark().attempts).toHaveLength(1)
  })

  test('a failure of one message does not hold up the others', async () => {
    const failing = await enqueue(message('bounce@example.org'))
    world.clock.advance(1)
    const fine = await enqueue(message('fine@example.org'))
    postmark().failNext(refused())
    expect(await world.dispatch()).toBe(2)
    expect((await stored(failing)).status).toBe('failed')
    expect((await stored(fine)).status).toBe('sent')
  })

  describe('a message claimed by a worker that died', () => {
    /** A worker claims the due messages, then dies before sending (its claim holds for the lease). */
    const claimAndDie = () => world.useCases.operations.dispatchOutbox.claim()

    test('is left alone while the claim holds', async () => {
      const id = await enqueue()
      expect((await claimAndDie()).map((m) => m.id)).toEqual([id])
      expect((await stored(id)).status).toBe('sending')
      expect(await world.dispatch()).toBe(0)
      world.clock.advance(leaseMs() - 1)
      expect(await world.dispatch()).toBe(0)
      expect(postmark().attempts).toEqual([])
    })

    test('is sent again, once, when the lease has run out', async () => {
      const id = await enqueue()
      await claimAndDie()
      world.clock.advance(leaseMs())
      expect(await world.dispatch()).toBe(1)
      expect(await stored(id)).toMatchObject({ status: 'sent', providerMessageId: 'postmark-1' })
      world.clock.advance(leaseMs())
      expect(await world.dispatch()).toBe(0)
      expect(postmark().delivered).toHaveLength(1)
    })

    test('the lease is OUTBOX_LEASE_MS, 60 s unless configured', async () => {
      expect(leaseMs()).toBe(60 * SECOND)
      const configured = await createMailWorld({ OUTBOX_LEASE_MS: '5000' })
      const id = await configured.container
        .get(PORTS.unitOfWork)
        .run((r) => configured.container.get(Outbox).email(r, configured.organizationId, message()))
      await configured.useCases.operations.dispatchOutbox.claim()
      configured.clock.advance(5 * SECOND - 1)
      expect(await configured.dispatch()).toBe(0)
      configured.clock.advance(1)
      expect(await configured.dispatch()).toBe(1)
      expect((await configured.repositories.outbox.findById(id))?.status).toBe('sent')
    })
  })

  test("emails count against the organization's maxConcurrency too: a claim takes only the free slots", async () => {
    await unitOfWork().run(async (r) => {
      const organization = (await r.organizations.findById(world.organizationId))!
      await r.organizations.update({ ...organization, maxConcurrency: 2 })
    })
    for (let i = 0; i < 3; i++) {
      await enqueue(message(`n${i}@example.org`))
      world.clock.advance(1)
    }
    const dispatcher = world.useCases.operations.dispatchOutbox
    expect(await dispatcher.claim()).toHaveLength(2)
    expect(await dispatcher.claim()).toHaveLength(0)
    world.clock.advance(leaseMs())
    expect(await world.dispatch()).toBe(2)
    expect(await world.dispatch()).toBe(1)
    expect(
      postmark()
        .delivered.map((d) => d.message.to)
        .sort(),
    ).toEqual(['n0@example.org', 'n1@example.org', 'n2@example.org'])
  })

  test('answers 0 and sends nothing when the outbox is empty', async () => {
    expect(await world.dispatch()).toBe(0)
    expect(postmark().attempts).toEqual([])
  })
})
