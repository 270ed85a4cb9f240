import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { signAwsRequest } from '../../../src/adapters/messaging/aws-sigv4'
import { SesEmailSender } from '../../../src/adapters/messaging/ses-email-sender'
import type { EmailProviderSettings } from '../../../src/domain/messaging/email'
import { FixedClock } from '../../support/fixed-clock'
import { parseAuthorization, referenceSign } from './sigv4-reference'
import { captureRequests, expectRefusal, type CapturedRequest } from './support'

const ACCESS_KEY_ID = 'AKIAIOSFODNN7EXAMPLE'
const SECRET_ACCESS_KEY = 'q9Zr/xK2+SeCrEtAcCeSsKeY/8hT4vW1nM0pLb3'
const REGION = 'eu-west-1'
const API_KEY = `${ACCESS_KEY_ID}:${SECRET_ACCESS_KEY}:${REGION}`
const ENDPOINT = `https://email.${REGION}.amazonaws.com/v2/email/outbound-emails`
const settings: EmailProviderSettings = { provider: 'ses', apiKey: API_KEY, fromEmail: 'desk@example.org', fromName: 'Help Desk' }
const message = {
  template: 'invitation' as const,
  to: 'someone@example.net',
  subject: 'Your invitation',
  text: 'Follow the link: https://x.test/accept-invite?token=abc',
}
const SECRETS = [API_KEY, SECRET_ACCESS_KEY]

const msw = setupServer()
beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }))
afterEach(() => msw.resetHandlers())
afterAll(() => msw.close())

const clock = new FixedClock('2026-11-22T09:07:05.432Z')
const sender = new SesEmailSender(clock)

function accepting(
  captured = captureRequests(),
  messageId = '010201234567abcd-11111111-2222-3333-4444-555555555555-000000',
  endpoint = ENDPOINT,
) {
  msw.use(
    http.post(endpoint, async ({ request }) => {
      await captured.add(request)
      return HttpResponse.json({ MessageId: messageId })
    }),
  )
  return captured
}

/** Recomputes the request's signature with the reference implementation, from what was actually sent. */
function expectValidSignature(request: CapturedRequest, credentials: { accessKeyId: string; secretAccessKey: string; region: string }) {
  const authorization = request.headers.get('authorization')
  expect(authorization).not.toBeNull()
  const parsed = parseAuthorization(authorization!)
  const amzDate = request.headers.get('x-amz-date')!
  expect(parsed).toMatchObject({
    accessKeyId: credentials.accessKeyId,
    date: amzDate.slice(0, 8),
    region: credentials.region,
    service: 'ses',
  })
  // SigV4 requires host and x-amz-date to be signed; the body's type and hash are signed too, so neither can be swapped.
  expect(parsed.signedHeaders).toEqual(expect.arrayContaining(['host', 'x-amz-date', 'content-type', 'x-amz-content-sha256']))
  const headers: Record<string, string> = {}
  for (const name of parsed.signedHeaders) {
    // The Host header is set by the HTTP client from the URL, so it is not among the fetch headers.
    const value = name === 'host' ? (request.headers.get('host') ?? request.url.host) : request.headers.get(name)
    expect(value).not.toBeNull()
    headers[name] = value!
  }
  const expected = referenceSign({
    method: request.method,
    url: request.url,
    headers,
    body: request.body,
    accessKeyId: credentials.accessKeyId,
    secretAccessKey: credentials.secretAccessKey,
    region: credentials.region,
    service: 'ses',
    amzDate,
  })
  expect(authorization).toBe(expected.authorization)
}

describe('SigV4 reference implementation', () => {
  test("matches AWS's published get-vanilla test-suite vector", () => {
    // aws-sig-v4-test-suite/get-vanilla: GET / on example.amazonaws.com, host and x-amz-date signed, empty body.
    const signed = referenceSign({
      method: 'GET',
      url: new URL('https://example.amazonaws.com/'),
      headers: { Host: 'example.amazonaws.com', 'X-Amz-Date': '20150830T123600Z' },
      body: '',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
      region: 'us-east-1',
      service: 'service',
      amzDate: '20150830T123600Z',
    })
    expect(signed.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    )
  })
})

describe('signAwsRequest', () => {
  test('signs exactly as the reference implementation does, for any body and time', () => {
    const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', region: 'us-west-2' }
    for (const [body, at] of [
      ['{}', '2015-08-30T12:36:00.000Z'],
      ['{"a":"ünïcödé ✓"}', '2024-02-29T23:59:59.999Z'],
    ] as const) {
      const url = new URL('https://email.us-west-2.amazonaws.com/v2/email/outbound-emails')
      const headers = signAwsRequest(credentials, 'ses', { method: 'POST', url, body, contentType: 'application/json' }, new Date(at))
      const amzDate = `${at.slice(0, 19).replace(/[-:]/g, '')}Z`
      expect(headers['x-amz-date']).toBe(amzDate)
      expect(headers['x-amz-content-sha256']).toBe(createHash('sha256').update(body, 'utf8').digest('hex'))
      const expected = referenceSign({
        method: 'POST',
        url,
        headers: {
          'content-type': 'application/json',
          host: 'email.us-west-2.amazonaws.com',
          'x-amz-content-sha256': headers['x-amz-content-sha256']!,
          'x-amz-date': amzDate,
        },
        body,
        ...credentials,
        service: 'ses',
        amzDate,
      })
      expect(headers.authorization).toBe(expected.authorization)
    }
  })
})

describe('SesEmailSender', () => {
  test('posts SendEmail to the regional SES v2 endpoint, signed with SigV4, and answers the MessageId', async () => {
    const captured = accepting()

    const result = await sender.send(settings, message)

    expect(result).toEqual({ messageId: '010201234567abcd-11111111-2222-3333-4444-555555555555-000000' })
    expect(captured.all).toHaveLength(1)
    const [request] = captured.all
    expect(request!.method).toBe('POST')
    expect(request!.url.href).toBe(ENDPOINT)
    expect(request!.headers.get('content-type')).toStartWith('application/json')
    expect(request!.headers.get('x-amz-date')).toBe('20261122T090705Z')
    expect(request!.headers.get('authorization')).toContain(`Credential=${ACCESS_KEY_ID}/20261122/${REGION}/ses/aws4_request,`)
    expect(request!.headers.get('x-amz-content-sha256')).toBe(createHash('sha256').update(request!.body, 'utf8').digest('hex'))
    expectValidSignature(request!, { accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET_ACCESS_KEY, region: REGION })
    expect(JSON.parse(request!.body)).toEqual({
      FromEmailAddress: '"Help Desk" <desk@example.org>',
      Destination: { ToAddresses: [message.to] },
      Content: {
        Simple: {
          Subject: { Data: message.subject, Charset: 'UTF-8' },
          Body: { Text: { Data: message.text, Charset: 'UTF-8' } },
        },
      },
    })
    // The secret goes into the signature, never onto the wire.
    const wire = [...request!.headers.entries()].flat().join('\n') + request!.body
    expect(wire).not.toContain(SECRET_ACCESS_KEY)
  })

  test('the region in the key picks the endpoint and the credential scope', async () => {
    const key = `AKIDOTHER:${SECRET_ACCESS_KEY}:ap-southeast-2`
    const captured = accepting(captureRequests(), 'mid-2', 'https://email.ap-southeast-2.amazonaws.com/v2/email/outbound-emails')
    const result = await sender.send({ provider: 'ses', apiKey: key, fromEmail: 'desk@example.org' }, message)
    expect(result).toEqual({ messageId: 'mid-2' })
    expect(captured.all).toHaveLength(1)
    expect(captured.all[0]!.headers.get('authorization')).toContain('Credential=AKIDOTHER/20261122/ap-southeast-2/ses/aws4_request,')
    expectValidSignature(captured.all[0]!, { accessKeyId: 'AKIDOTHER', secretAccessKey: SECRET_ACCESS_KEY, region: 'ap-southeast-2' })
    expect(JSON.parse(captured.all[0]!.body).FromEmailAddress).toBe('desk@example.org')
  })

  test('a signature made with another secret does not verify (the check is not vacuous)', async () => {
    const captured = accepting()
    await sender.send(settings, message)
    expect(() =>
      expectValidSignature(captured.all[0]!, { accessKeyId: ACCESS_KEY_ID, secretAccessKey: 'another-secret', region: REGION }),
    ).toThrow()
  })

  test('signs with the time of sending: a later clock gives a new date and signature', async () => {
    const later = new FixedClock('2026-11-23T00:00:01.000Z')
    const captured = accepting()
    await new SesEmailSender(later).send(settings, message)
    const [request] = captured.all
    expect(request!.headers.get('x-amz-date')).toBe('20261123T000001Z')
    expect(request!.headers.get('authorization')).toContain('/20261123/eu-west-1/ses/aws4_request')
    expectValidSignature(request!, { accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET_ACCESS_KEY, region: REGION })
  })

  test.each([
    [
      400,
      'MessageRejected',
      'Email address is not verified. The following identities failed the check in region EU-WEST-1: desk@example.org',
    ],
    [403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.'],
    [404, 'NotFoundException', 'Configuration set does not exist.'],
  ])('a %i (%s) is a non-retryable ProviderError with the message', async (status, type, reason) => {
    msw.use(http.post(ENDPOINT, () => HttpResponse.json({ message: reason }, { status, headers: { 'x-amzn-ErrorType': type } })))
    const error = await expectRefusal(sender.send(settings, message), { retryable: false, secrets: SECRETS })
    expect(error.message).toContain('SES')
    expect(error.message).toContain(String(status))
    expect(error.message).toContain(reason)
  })

  test('an error body with a capitalized Message is read too', async () => {
    msw.use(http.post(ENDPOINT, () => HttpResponse.json({ Message: 'Account is in sandbox' }, { status: 400 })))
    const error = await expectRefusal(sender.send(settings, message), { retryable: false, secrets: SECRETS })
    expect(error.message).toContain('Account is in sandbox')
  })

  test.each([
    [429, 'Maximum sending rate exceeded.'],
    [500, 'Internal failure'],
    [503, 'Service unavailable'],
  ])('a %i is a retryable ProviderError', async (status, reason) => {
    msw.use(http.post(ENDPOINT, () => HttpResponse.json({ message: reason }, { status })))
    const error = await expectRefusal(sender.send(settings, message), { retryable: true, secrets: SECRETS })
    expect(error.message).toContain(reason)
  })

  test('a network error is a retryable ProviderError', async () => {
    msw.use(http.post(ENDPOINT, () => HttpResponse.error()))
    const error = await expectRefusal(sender.send(settings, message), { retryable: true, secrets: SECRETS })
    expect(error.message).toContain('SES')
  })

  test('the secret access key is removed from a reason that echoes it', async () => {
    msw.use(http.post(ENDPOINT, () => HttpResponse.json({ message: `Key ${SECRET_ACCESS_KEY} is not valid` }, { status: 403 })))
    const error = await expectRefusal(sender.send(settings, message), { retryable: false, secrets: SECRETS })
    expect(error.message).toContain('Key *** is not valid')
  })

  test('a key that is not ACCESS_KEY_ID:SECRET_ACCESS_KEY:REGION is refused without a request', async () => {
    const captured = captureRequests()
    msw.use(
      http.all('*', async ({ request }) => {
        await captured.add(request)
        return HttpResponse.json({})
      }),
    )
    const malformed = `${ACCESS_KEY_ID}:${SECRET_ACCESS_KEY}`
    const error = await expectRefusal(sender.send({ ...settings, apiKey: malformed }, message), {
      retryable: false,
      secrets: [malformed, SECRET_ACCESS_KEY],
    })
    expect(error.message).toContain('ACCESS_KEY_ID:SECRET_ACCESS_KEY:REGION')
    expect(captured.all).toHaveLength(0)
  })
})
