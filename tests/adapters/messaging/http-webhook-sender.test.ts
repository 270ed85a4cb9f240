import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createServer, type AddressInfo } from 'node:net'
import { HttpWebhookSender, StandardWebhookSecrets } from '../../../src/adapters/messaging/http-webhook-sender'
import { OutboundHostPolicy } from '../../../src/adapters/messaging/smtp-host-policy'
import { ProviderError } from '../../../src/application/ports/provider-error'
import { InvalidError } from '../../../src/domain/errors'
import { startWebhookReceiver } from '../../support/webhook-receiver'

// The webhook sender against a real receiver on 127.0.0.1 (docs/events.md "The request").

const secret = new StandardWebhookSecrets().generate()
const request = (url: string) => ({
  url,
  secret,
  id: 'a8a8b7a4-1c43-4c1b-9a55-6e0f3c6f2f11',
  timestamp: new Date('2026-11-22T09:00:00.000Z'),
  body: '{"type":"need.created"}',
})

let receiver: ReturnType<typeof startWebhookReceiver>
let slow: ReturnType<typeof startWebhookReceiver>
beforeAll(() => {
  receiver = startWebhookReceiver()
  slow = startWebhookReceiver({ delayMs: 500 })
  receiver.secretFor('/hook', secret)
})
afterAll(() => {
  receiver.stop()
  slow.stop()
})

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('the send succeeded'),
    (error: unknown) => error,
  )
}

describe('HttpWebhookSender', () => {
  test('posts the body as given with the three Standard Webhooks headers, and answers the status', async () => {
    const sender = new HttpWebhookSender(new OutboundHostPolicy())
    receiver.answerWith(() => 204)
    expect(await sender.send(request(receiver.url('/hook')))).toEqual({ status: 204 })
    const got = receiver.received.find((r) => r.path === '/hook')
    expect(got).toMatchObject({ id: request('').id, timestamp: 1795338000, raw: '{"type":"need.created"}', signatureValid: true })
  })

  test('a redirect is answered as it is, not followed', async () => {
    const sender = new HttpWebhookSender(new OutboundHostPolicy())
    receiver.answerWith((path) => (path === '/moved' ? Response.redirect(receiver.url('/elsewhere'), 307) : 200))
    expect(await sender.send(request(receiver.url('/moved')))).toEqual({ status: 307 })
    expect(receiver.received.filter((r) => r.path === '/elsewhere')).toEqual([])
  })

  test('no answer in time, or no connection, is a retryable failure whose outcome is unknown', async () => {
    const timedOut = await rejection(new HttpWebhookSender(new OutboundHostPolicy(), 50).send(request(slow.url('/hook'))))
    expect(timedOut).toBeInstanceOf(ProviderError)
    expect(timedOut).toMatchObject({ retryable: true, outcomeUnknown: true, message: 'the endpoint did not answer in time' })

    const probe = createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()))
    const port = (probe.address() as AddressInfo).port
    await new Promise<void>((resolve) => probe.close(() => resolve()))
    const refused = await rejection(new HttpWebhookSender(new OutboundHostPolicy()).send(request(`http://127.0.0.1:${port}/hook`)))
    expect(refused).toMatchObject({ retryable: true, outcomeUnknown: true, message: 'the endpoint could not be reached' })
  })

  test('with private hosts blocked, a loopback endpoint is refused when checked and at every try, before anything is contacted', async () => {
    const sender = new HttpWebhookSender(new OutboundHostPolicy({ allowedHosts: [], blockPrivate: true }))
    const before = receiver.received.length
    expect(await rejection(sender.check(receiver.url('/hook')))).toBeInstanceOf(InvalidError)
    const refused = await rejection(sender.send(request(receiver.url('/hook'))))
    expect(refused).toMatchObject({ retryable: false })
    expect(receiver.received).toHaveLength(before)
  })
})
