import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { PostmarkEmailSender } from '../../../src/adapters/messaging/postmark-email-sender'
import type { EmailProviderSettings } from '../../../src/domain/messaging/email'
import { captureRequests, expectRefusal } from './support'

const ENDPOINT = 'https://api.postmarkapp.com/email'
const TOKEN = 'pm-token-7f3a9c2e-SECRET'
const settings: EmailProviderSettings = { provider: 'postmark', apiKey: TOKEN, fromEmail: 'desk@example.org', fromName: 'Help Desk' }
const message = {
  template: 'invitation' as const,
  to: 'someone@example.net',
  subject: 'Your invitation',
  text: 'Follow the link: https://x.test/accept-invite?token=abc',
}

const msw = setupServer()
beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }))
afterEach(() => msw.resetHandlers())
afterAll(() => msw.close())

const sender = new PostmarkEmailSender()

describe('PostmarkEmailSender', () => {
  test('posts the message as JSON with the server token and answers the MessageID', async () => {
    const captured = captureRequests()
    msw.use(
      http.post(ENDPOINT, async ({ request }) => {
        await captured.add(request)
        return HttpResponse.json({
          To: message.to,
          SubmittedAt: '2026-11-22T09:00:00Z',
          MessageID: 'b7bc2f4a-e38e-4336-af7d-e6c392c2f817',
          ErrorCode: 0,
          Message: 'OK',
        })
      }),
    )

    const result = await sender.send(settings, message)

    expect(result).toEqual({ messageId: 'b7bc2f4a-e38e-4336-af7d-e6c392c2f817' })
    expect(captured.all).toHaveLength(1)
    const [request] = captured.all
    expect(request!.method).toBe('POST')
    expect(request!.headers.get('x-postmark-server-token')).toBe(TOKEN)
    expect(request!.headers.get('content-type')).toStartWith('application/json')
    expect(request!.headers.get('accept')).toBe('application/json')
    expect(JSON.parse(request!.body)).toEqual({
      From: '"Help Desk" <desk@example.org>',
      To: message.to,
      Subject: message.subject,
      TextBody: message.text,
      MessageStream: 'outbound',
    })
  })

  test('sends the bare address as From when there is no sender name', async () => {
    const captured = captureRequests()
    msw.use(
      http.post(ENDPOINT, async ({ request }) => {
        await captured.add(request)
        return HttpResponse.json({ MessageID: 'id-2', ErrorCode: 0, Message: 'OK' })
      }),
    )
    await sender.send({ provider: 'postmark', apiKey: TOKEN, fromEmail: 'desk@example.org' }, message)
    expect(JSON.parse(captured.all[0]!.body).From).toBe('desk@example.org')
  })

  test('answers no messageId when Postmark gives none', async () => {
    msw.use(http.post(ENDPOINT, () => HttpResponse.json({ ErrorCode: 0, Message: 'OK' })))
    expect(await sender.send(settings, message)).toEqual({})
  })

  test.each([
    [401, 10, 'The Server Token you provided in the X-Postmark-Server-Token request header was invalid.'],
    [422, 300, "Invalid 'From' address: 'desk@example.org'."],
  ])("a %i refusal is a non-retryable ProviderError with Postmark's Message", async (status, errorCode, reason) => {
    msw.use(http.post(ENDPOINT, () => HttpResponse.json({ ErrorCode: errorCode, Message: reason }, { status })))
    const error = await expectRefusal(sender.send(settings, message), { retryable: false, secrets: [TOKEN] })
    expect(error.message).toContain('Postmark')
    expect(error.message).toContain(String(status))
    expect(error.message).toContain(reason)
  })

  test.each([
    [500, 'Internal server error'],
    [429, 'Rate limit exceeded'],
    [503, 'Service unavailable'],
  ])('a %i answer is a retryable ProviderError', async (status, reason) => {
    msw.use(http.post(ENDPOINT, () => HttpResponse.json({ ErrorCode: 0, Message: reason }, { status })))
    const error = await expectRefusal(sender.send(settings, message), { retryable: true, secrets: [TOKEN] })
    expect(error.message).toContain(reason)
  })

  test('a non-JSON error body is passed on as text', async () => {
    msw.use(http.post(ENDPOINT, () => new HttpResponse('upstream gateway timeout', { status: 504 })))
    const error = await expectRefusal(sender.send(settings, message), { retryable: true, secrets: [TOKEN] })
    expect(error.message).toContain('upstream gateway timeout')
  })

  test('a network error is a retryable ProviderError', async () => {
    msw.use(http.post(ENDPOINT, () => HttpResponse.error()))
    const error = await expectRefusal(sender.send(settings, message), { retryable: true, secrets: [TOKEN] })
    expect(error.message).toContain('Postmark')
  })

  test('the token is removed from a reason that echoes it', async () => {
    msw.use(
      http.post(ENDPOINT, () =>
        HttpResponse.json({ ErrorCode: 10, Message: `Server token '${TOKEN}' is not valid for this server.` }, { status: 401 }),
      ),
    )
    const error = await expectRefusal(sender.send(settings, message), { retryable: false, secrets: [TOKEN] })
    expect(error.message).toContain("Server token '***' is not valid")
  })
})
