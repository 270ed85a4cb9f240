import { Elysia, t } from 'elysia'
import type { LiveStreamSink, LiveStreams } from '../../application/live/live-streams'
import type { LiveEvent } from '../../domain/webhooks/live-event'
import { bearerTokenOf, type AuthenticationPlugin } from './authentication'
import { problems } from './common.schemas'

const encoder = new TextEncoder()

/** One server-sent event (the HTML standard's `text/event-stream`): each field on its line, a blank line after. */
function frame(event: LiveEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`
}

const STREAM = t.String({
  description:
    "Server-sent events: `event:` the type (a webhook event's: need.created, note.added, sms.received…), `data:` the webhook payload's `data` (ids only), `id:` an increasing event id; `event: reset` when what was missed is no longer kept (reload); a comment every 20 s.",
  contentMediaType: 'text/event-stream',
})

/**
 * `GET /api/stream` (docs/events.md "The live stream"): the organization's events as they commit, as the
 * member may read them, until the token expires or the session or the member's access ends. The answer's
 * headers go at once, with a first comment, so a client knows the stream is open before any event.
 */
export function streamRoutes(streams: LiveStreams, authentication: AuthenticationPlugin) {
  return new Elysia({ name: 'stream', detail: { tags: ['Events'] } }).use(authentication).get(
    '/api/stream',
    async ({ request, server }) => {
      // Bun closes a connection quiet for 10 s; the heartbeat keeps proxies' longer limits, and a lost client is found by its write.
      server?.timeout(request, 0)
      // Until the stream is open, a client gone says so here; then `close` removes the stream at once.
      let gone = false
      let close = () => {
        gone = true
      }
      let controller!: ReadableStreamDefaultController<Uint8Array>
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          controller = c
        },
        cancel: () => close(),
      })
      const write = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text))
        } catch {
          close() // the client is gone
        }
      }
      const sink: LiveStreamSink = {
        event: (event) => write(frame(event)),
        reset: () => write('event: reset\ndata: {}\n\n'),
        heartbeat: () => write(': heartbeat\n\n'),
        end: () => {
          try {
            controller.close()
          } catch {}
        },
      }
      write(': open\n\n')
      close = await streams.open(bearerTokenOf(request), request.headers.get('last-event-id') ?? undefined, sink)
      if (gone) close()
      return new Response(body, {
        headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
      })
    },
    {
      auth: true,
      headers: t.Object({
        'last-event-id': t.Optional(t.String({ maxLength: 20, description: 'The id of the last event received, to get what followed it' })),
      }),
      response: { 200: STREAM, ...problems(401) },
      detail: {
        operationId: 'streamEvents',
        summary: "The organization's events as they happen, as server-sent events",
        description:
          "Any member. Only what the member may read (as `GET /api/needs` and the constituents' reads). Ends when the access token expires (reconnect with a fresh one), at logout, when the session is revoked and when the member is deactivated.",
      },
    },
  )
}
