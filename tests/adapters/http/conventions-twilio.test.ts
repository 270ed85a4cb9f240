import { describe, expect, test } from 'bun:test'
import twilio from 'twilio'
import { admin, api, openConventionsServer } from './conventions-support'
import { expectBadRequest, expectProblem } from './helpers'

// docs/api/organization.md "SMS": the provider's webhooks answer anyone on the internet, so they take no member's token,
// and their bodies are held to the same conventions as every other route's (docs/api/conventions.md "Errors").
openConventionsServer()

describe('Twilio webhooks (docs/api/organization.md "SMS")', () => {
  const hooks = ['/api/webhooks/twilio/sms', '/api/webhooks/twilio/status']
  const form = (params: Record<string, string>) => ({
    raw: new URLSearchParams(params).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  const params = {
    AccountSid: `AC${'0'.repeat(32)}`,
    MessageSid: 'SM0001',
    From: '+15550100001',
    To: '+15550100999',
    Body: 'STOP',
    MessageStatus: 'delivered',
  }

  test("need no bearer token, but without Twilio's auth token (the log provider) every request is a 403 problem, signed or not", async () => {
    for (const path of hooks) {
      for (const signature of [undefined, twilio.getExpectedTwilioSignature('any-token', `http://localhost${path}`, params)]) {
        const signed: Record<string, string> = signature ? { 'x-twilio-signature': signature } : {}
        const anonymous = await api.call('POST', path, { ...form(params), headers: { ...form(params).headers, ...signed } })
        expectProblem(anonymous, 403, 'Forbidden')
        // A member's token is no substitute for Twilio's signature.
        const withToken = await api.call('POST', path, { token: admin, ...form(params), headers: { ...form(params).headers, ...signed } })
        expectProblem(withToken, 403, 'Forbidden')
      }
    }
  })

  test('a body that is not a set of string parameters is 400, never 422', async () => {
    for (const path of hooks) {
      const cases = [
        { raw: '{"a":', headers: { 'content-type': 'application/json' } },
        { raw: '' },
        { body: [] },
        { body: 'text' },
        { body: 42 },
        { body: { Body: 42 } },
        { raw: '['.repeat(20_000) + ']'.repeat(20_000) },
        form({ ...params, Body: 'x'.repeat(5001) }),
        form(Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`P${i}`, 'x']))),
      ]
      for (const options of cases) {
        const response = await api.call('POST', path, options)
        expect({ path, options: JSON.stringify(options).slice(0, 80), status: response.status }).toEqual({
          path,
          options: JSON.stringify(options).slice(0, 80),
          status: 400,
        })
        expectBadRequest(response)
      }
    }
  })

  test('a body over 256 KiB is a 413 problem, and the connection is closed', async () => {
    for (const path of hooks) {
      const response = await api.call('POST', path, form({ Body: 'x'.repeat(256 * 1024) }))
      expectProblem(response, 413, 'Payload too large')
      expect(response.headers.get('connection')).toBe('close')
    }
  })
})
