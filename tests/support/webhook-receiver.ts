import { createHmac, timingSafeEqual } from 'node:crypto'

/** One event a receiver took, after checking its signature itself (Standard Webhooks). */
export interface ReceivedWebhook {
  id: string
  timestamp: number
  type: string
  body: { type: string; timestamp: string; data: Record<string, string> }
  raw: string
  path: string
  /** Whether `webhook-signature` held a valid `v1` signature under the secret of the path's endpoint. */
  signatureValid: boolean
}

/**
 * Verifies a Standard Webhooks signature the way a receiver would, written from the specification rather
 * than from the service's code: HMAC-SHA256 under the base64-decoded secret (after `whsec_`) of
 * `id.timestamp.body`, compared with each space-separated `v1,<base64>` of the header.
 */
export function verifySignature(secret: string, headers: Headers, body: string): boolean {
  const id = headers.get('webhook-id')
  const timestamp = headers.get('webhook-timestamp')
  const signatures = headers.get('webhook-signature')
  if (!id || !timestamp || !signatures) return false
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest()
  return signatures.split(' ').some((signature) => {
    const [version, value] = signature.split(',')
    if (version !== 'v1' || !value) return false
    const given = Buffer.from(value, 'base64')
    return given.length === expected.length && timingSafeEqual(given, expected)
  })
}

/**
 * A receiver on 127.0.0.1 (Bun.serve): each path stands for one endpoint, checked with the secret given
 * to `secretFor`; `answer` decides the status per request (200 by default). With `delayMs` each request is
 * held that long before its answer (it counts as received at once), so requests can be caught in flight.
 */
export function startWebhookReceiver(options: { delayMs?: number } = {}) {
  const received: ReceivedWebhook[] = []
  const secrets = new Map<string, string>()
  let answer: (path: string, count: number) => number | Response = () => 200
  const state = { inFlight: 0, maxInFlight: 0 }
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname
      const raw = await request.text()
      const secret = secrets.get(path) ?? ''
      const body = JSON.parse(raw) as ReceivedWebhook['body']
      received.push({
        id: request.headers.get('webhook-id') ?? '',
        timestamp: Number(request.headers.get('webhook-timestamp')),
        type: body.type,
        body,
        raw,
        path,
        signatureValid: verifySignature(secret, request.headers, raw),
      })
      const status = answer(path, received.filter((r) => r.path === path).length)
      state.inFlight++
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight)
      if (options.delayMs) await Bun.sleep(options.delayMs)
      state.inFlight--
      return status instanceof Response ? status : new Response(null, { status })
    },
  })
  return {
    received,
    state,
    url: (path: string) => `http://127.0.0.1:${server.port}${path}`,
    secretFor(path: string, secret: string) {
      secrets.set(path, secret)
    },
    answerWith(decide: (path: string, count: number) => number | Response) {
      answer = decide
    },
    stop: () => server.stop(true),
  }
}
