import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { SendgridEmailSender } from '../../../src/adapters/messaging/sendgrid-email-sender'
import type { EmailProviderSettings } from '../../../src/domain/messaging/email'
import { captureRequests, expectRefusal } from './support'

const ENDPOINT = 'https://api.sendgrid.com/v3/mail/send'
const API_KEY = 'SG.q1w2e3r4t5y6.u7i8o9p0-SECRET-a1s2d3f4'
const settings: EmailProviderSettings = { provider: 'sendgrid', apiKey: API_KEY, fromEmail: 'desk@example.org', fromName: 'Help Desk' }
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

const sender = new SendgridEmailSender()

const refusal = (status: number, ...messages: string[]) =>
  http.post(ENDPOINT, () => HttpResponse.json({ errors: messages.map((m) => ({ message: m, field: null, help: null })) }, { status }))

describe('SendgridEmailSender', () => {
  test('posts personalizations, from, subject and content with a bearer key; 202 answers X-Message-Id', async () => {
    const captured = captureRequests()
    msw.use(
      http.post(ENDPOINT, async ({ request }) => {
        await captured.add(request)
        return new HttpResponse(null, { status: 202, headers: { 'X-Message-Id': 'W7gKx2lNQm-abc123' } })
      }),
    )

    const result = await sender.send(settings, message)

    expect(result).toEqual({ messageId: 'W7gKx2lNQm-abc123' })
    expect(captured.all).toHaveLength(1)
    const [request] = captured.all
    expect(request!.method).toBe('POST')
    expect(request!.headers.get('authorization')).toBe(`Bearer ${API_KEY}`)
    expect(request!.headers.get('content-type')).toStartWith('application/json')
    expect(JSON.parse(request!.body)).toEqual({
      personalizations: [{ to: [{ email: message.to }] }],
      from: { email: 'desk@example.org', name: 'Help Desk' },
      subject: message.subject,
      content: [{ type: 'text/plain', value: message.text }],
    })
  })

  test('leaves the name out of from when there is none, and answers no messageId without the header', async () => {
    const captured = captureRequests()
    msw.use(
      http.post(ENDPOINT, async ({ request }) => {
        await captured.add(request)
        return new HttpResponse(null, { status: 202 })
      }),
    )
    const result = await sender.send({ provider: 'sendgrid', apiKey: API_KEY, fromEmail: 'desk@example.org' }, message)
    expect(result).toEqual({})
    expect(JSON.parse(captured.all[0]!.body).from).toEqual({ email: 'desk@example.org' })
  })

  test.each([
    [401, ['The provided authorization grant is invalid, expired, or revoked']],
    [403, ['The from address does not match a verified Sender Identity.']],
    [400, ['The subject is required.', 'Invalid email address in personalizations.0.to.0.email']],
  ])("a %i refusal is a non-retryable ProviderError with SendGrid's error messages", async (status, reasons) => {
    msw.use(refusal(status, ...reasons))
    const error = await expectRefusal(sender.send(settings, message), { retryable: false, secrets: [API_KEY] })
    expect(error.message).toContain('SendGrid')
    expect(error.message).toContain(String(status))
    for (const reason of reasons) expect(error.message).toContain(reason)
  })

  test.each([429, 500, 502])('a %i answer is a retryable ProviderError', async (status) => {
    msw.use(refusal(status, 'try again later'))
    const error = await expectRefusal(sender.send(settings, message), { retryable: true, secrets: [API_KEY] })
    expect(error.message).toContain('try again later')
  })

  test('an error body without errors is passed on as text', async () => {
    msw.use(http.post(ENDPOINT, () => new HttpResponse('Service Unavailable', { status: 503 })))
    const error = await expectRefusal(sender.send(settings, message), { retryable: true, secrets: [API_KEY] })
    expect(error.message).toContain('Service Unavailable')
  })

  test('a network error is a retryable ProviderError', async () => {
    msw.use(http.post(ENDPOINT, () => HttpResponse.error()))
    const error = await expectRefusal(sender.send(settings, message), { retryable: true, secrets: [API_KEY] })
    expect(error.message).toContain('SendGrid')
  })

  test('the key is removed from a reason that echoes it', async () => {
    msw.use(refusal(401, `API key ${API_KEY} does not have permission mail.send`))
    const error = await expectRefusal(sender.send(settings, message), { retryable: false, secrets: [API_KEY] })
    expect(error.message).toContain('API key *** does not have permission')
  })
})
