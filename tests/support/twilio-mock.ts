import type { Server } from 'bun'

/** One message the mock accepted, as Twilio would keep it. */
export interface MockMessage {
  sid: string
  from: string
  to: string
  body: string
  statusCallback?: string
  dateCreated: Date
}

export interface TwilioMockOptions {
  /** Answers for the next POSTs, in order, before it starts accepting: e.g. [503, 429, 'network']. */
  failures?: Array<number | 'network'>
  /** How long each accepted POST takes, to hold requests in flight. */
  delayMs?: number
  /** A fixed port, so a restarted service finds the same mock. */
  port?: number
}

/**
 * A local Twilio-compatible Messages API (TWILIO_API_BASE_URL points at it): accepts messages, lists them,
 * and counts what is in flight, so tests can watch retries, the concurrency cap and exactly-once delivery.
 */
export class TwilioMock {
  readonly messages: MockMessage[] = []
  readonly requests: Array<{ method: string; path: string; status: number; at: number }> = []
  inFlight = 0
  maxInFlight = 0
  private server: Server<unknown> | undefined
  private failures: Array<number | 'network'>
  private sequence = 0

  constructor(private readonly options: TwilioMockOptions = {}) {
    this.failures = [...(options.failures ?? [])]
  }

  get url(): string {
    return `http://127.0.0.1:${this.server!.port}`
  }

  start(): this {
    this.server = Bun.serve({ hostname: '127.0.0.1', port: this.options.port ?? 0, fetch: (request) => this.handle(request) })
    return this
  }

  async stop(): Promise<void> {
    await this.server?.stop(true)
  }

  /** Failures to answer the next POSTs with. */
  failNext(...failures: Array<number | 'network'>): void {
    this.failures.push(...failures)
  }

  private async handle(request: Request): Promise<Response> {
    const url = new URL(request.url)
    const path = url.pathname
    if (!/^\/2010-04-01\/Accounts\/[^/]+\/Messages\.json$/.test(path)) return this.answer(request, path, 404, { message: 'not found' })
    if (request.method === 'GET') return this.list(request, url)
    this.inFlight += 1
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight)
    try {
      const form = new URLSearchParams(await request.text())
      if (this.options.delayMs) await Bun.sleep(this.options.delayMs)
      const failure = this.failures.shift()
      if (failure === 'network') {
        this.requests.push({ method: 'POST', path, status: 0, at: Date.now() })
        throw new Error('simulated network failure') // Bun closes the connection without an answer
      }
      if (failure !== undefined)
        return this.answer(request, path, failure, { code: 20000 + failure, message: `simulated ${failure}`, status: failure })
      const message: MockMessage = {
        sid: `SM${String(++this.sequence).padStart(32, '0')}`,
        from: form.get('From') ?? '',
        to: form.get('To') ?? '',
        body: form.get('Body') ?? '',
        ...(form.get('StatusCallback') ? { statusCallback: form.get('StatusCallback')! } : {}),
        dateCreated: new Date(),
      }
      this.messages.push(message)
      return this.answer(request, path, 201, twilioJson(message))
    } finally {
      this.inFlight -= 1
    }
  }

  private list(request: Request, url: URL): Response {
    const to = url.searchParams.get('To')
    const from = url.searchParams.get('From')
    const after = url.searchParams.get('DateSent>')
    const found = this.messages.filter(
      (m) =>
        (!to || m.to === to) && (!from || m.from === from) && (!after || m.dateCreated.toISOString().slice(0, 10) >= after.slice(0, 10)),
    )
    return this.answer(request, url.pathname, 200, {
      messages: found.map(twilioJson),
      end: Math.max(0, found.length - 1),
      first_page_uri: url.pathname,
      next_page_uri: null,
      page: 0,
      page_size: found.length,
      previous_page_uri: null,
      start: 0,
      uri: url.pathname,
    })
  }

  private answer(request: Request, path: string, status: number, body: unknown): Response {
    this.requests.push({ method: request.method, path, status, at: Date.now() })
    return Response.json(body, { status })
  }
}

function twilioJson(m: MockMessage) {
  return {
    sid: m.sid,
    account_sid: 'AC00000000000000000000000000000000',
    from: m.from,
    to: m.to,
    body: m.body,
    status: 'queued',
    date_created: m.dateCreated.toUTCString(),
    date_sent: m.dateCreated.toUTCString(),
    date_updated: m.dateCreated.toUTCString(),
    direction: 'outbound-api',
    num_segments: '1',
    uri: `/2010-04-01/Accounts/AC00000000000000000000000000000000/Messages/${m.sid}.json`,
  }
}
