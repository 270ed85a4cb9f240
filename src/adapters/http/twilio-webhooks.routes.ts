import { Elysia, t } from 'elysia'
import type { UseCases } from '../../application/use-cases'
import { WEBHOOK_VALUE } from '../../domain/messaging/sms'
import { problems } from './common.schemas'

// docs/api/organization.md "SMS": Twilio posts form-encoded parameters, signed in X-Twilio-Signature over the public URL
const TwilioParams = t.Record(t.String({ maxLength: 100 }), t.String(WEBHOOK_VALUE), { maxProperties: 100, additionalProperties: false })
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>' as const

export function twilioWebhooksRoutes(useCases: UseCases['sms'], publicBaseUrl: string) {
  const { receive, recordStatus } = useCases
  /** What Twilio signed: the address it was given (behind a proxy, not the one this server sees). */
  const signedRequest = (request: Request, params: Record<string, string>) => {
    const { pathname, search } = new URL(request.url)
    return { url: `${publicBaseUrl}${pathname}${search}`, params, signature: request.headers.get('x-twilio-signature') ?? undefined }
  }

  return new Elysia({
    name: 'twilio-webhooks',
    prefix: '/api/webhooks/twilio',
    detail: { tags: ['Webhooks'], security: [{ twilioSignature: [] }] },
  })
    .post(
      '/sms',
      async ({ request, body, set }) => {
        await receive.execute(signedRequest(request, body))
        set.headers['content-type'] = 'text/xml'
        return EMPTY_TWIML
      },
      {
        body: TwilioParams,
        parse: 'urlencoded',
        response: { 200: t.Literal(EMPTY_TWIML, { description: 'Empty TwiML' }), ...problems(400, 403, 413) },
        detail: {
          operationId: 'receiveSms',
          summary: 'Inbound text (Twilio); STOP/START keywords change the opt-out',
          description: 'Called by Twilio, checked against `X-Twilio-Signature` (403 otherwise); answers empty TwiML.',
        },
      },
    )
    .post(
      '/status',
      async ({ request, body, set }) => {
        await recordStatus.execute(signedRequest(request, body))
        set.status = 204
      },
      {
        body: TwilioParams,
        parse: 'urlencoded',
        response: { 204: t.Void(), ...problems(400, 403, 413) },
        detail: {
          operationId: 'recordSmsStatus',
          summary: 'Delivery status callback (Twilio)',
          description:
            'Called by Twilio, checked against `X-Twilio-Signature` (403 otherwise); moves an outbound text to delivered or failed.',
        },
      },
    )
}
