/** One server-sent event as a client reads it; `comment` for a line opening with a colon (the heartbeat). */
export interface ReceivedEvent {
  id?: string
  event?: string
  data?: unknown
  comment?: string
}

/** A client of `GET /api/stream`: what it has read, and a way to wait for what comes. */
export interface EventStreamClient {
  status: number
  received: ReceivedEvent[]
  /** The first event (not a comment) that `matches`, waited for up to `timeoutMs`. */
  next(matches: (event: ReceivedEvent) => boolean, timeoutMs?: number): Promise<ReceivedEvent>
  /** Resolves when the server ends the stream. */
  ended: Promise<void>
  close(): void
}

/**
 * Opens the stream with `token` (and `lastEventId`), as the console does: a streaming fetch with the
 * Authorization header. The frames are parsed as the HTML standard reads `text/event-stream`.
 */
export async function openEventStream(baseUrl: string, token: string, lastEventId?: string): Promise<EventStreamClient> {
  const abort = new AbortController()
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) }
  const response = await fetch(`${baseUrl}/api/stream`, { headers, signal: abort.signal })
  const received: ReceivedEvent[] = []
  const waiting = new Set<() => void>()
  const read = async () => {
    if (!response.body || response.status !== 200) return
    const decoder = new TextDecoder()
    let buffer = ''
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk, { stream: true })
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          received.push(parse(buffer.slice(0, end)))
          buffer = buffer.slice(end + 2)
        }
        for (const wake of waiting) wake()
      }
    } catch {
      // closed by the test
    }
  }
  const ended = read()
  return {
    status: response.status,
    received,
    ended,
    next(matches, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = received.find((e) => e.comment === undefined && matches(e))
          if (!found) return
          waiting.delete(check)
          clearTimeout(timer)
          resolve(found)
        }
        const timer = setTimeout(() => {
          waiting.delete(check)
          reject(new Error(`no such event within ${timeoutMs} ms; received ${JSON.stringify(received)}`))
        }, timeoutMs)
        waiting.add(check)
        check()
      })
    },
    close: () => abort.abort(),
  }
}

function parse(frame: string): ReceivedEvent {
  const event: ReceivedEvent = {}
  for (const line of frame.split('\n')) {
    if (line.startsWith(':')) event.comment = line.slice(1).trim()
    const [, field, value] = /^(id|event|data): ?(.*)$/.exec(line) ?? []
    if (field === 'data') event.data = JSON.parse(value!)
    else if (field === 'id' || field === 'event') event[field] = value
  }
  return event
}
