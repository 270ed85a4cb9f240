import { useEffect, useRef, useState } from 'preact/hooks'
import { client } from './api'
import { authorized, onSessionChange } from './session'

// docs/console.md "Live updates": one stream of the organization's events per tab (`GET /api/stream`), read with a
// streaming fetch (EventSource cannot send the access token in a header), shared by the screens open on it.
export interface LiveEvent {
  type: string
  /** The record's ids (`needId`, `interactionId`…); none for `reset`. */
  data: Record<string, string>
}

type Listener = (event: LiveEvent) => void

const RECONNECT_MS = 1_000
/** Events that come together make one reload of the screen. */
const GATHER_MS = 200
const listeners = new Set<Listener>()
let running: AbortController | undefined
let lastEventId: string | undefined

/**
 * Reads the stream while a screen listens, and comes back when it ends (its token expired: the session keeps a
 * fresh one) with the id of the last event read, so the server sends what was missed, or `reset`.
 */
async function run(abort: AbortController) {
  while (!abort.signal.aborted) {
    const headers: Record<string, string> = lastEventId ? { 'last-event-id': lastEventId } : {}
    const answer = await authorized(() => client.GET('/api/stream', { headers, parseAs: 'stream', signal: abort.signal })).catch(
      () => undefined,
    )
    // Signed out: the stream starts again when a session does.
    if (answer?.response.status === 401) return stop()
    if (answer?.data) await read(answer.data).catch(() => undefined)
    await new Promise((resume) => setTimeout(resume, RECONNECT_MS))
  }
}

async function read(body: ReadableStream<Uint8Array>) {
  const decoder = new TextDecoder()
  let buffer = ''
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true })
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      dispatch(buffer.slice(0, end))
      buffer = buffer.slice(end + 2)
    }
  }
}

/** One frame of `text/event-stream`: its `id`, `event` and `data` lines (a comment, the heartbeat, is none). */
function dispatch(frame: string) {
  const fields = new Map(frame.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]))
  const type = fields.get('event')
  if (!type) return
  if (fields.has('id')) lastEventId = fields.get('id')
  const event = { type, data: JSON.parse(fields.get('data') || '{}') as Record<string, string> }
  for (const listener of listeners) listener(event)
}

function start() {
  if (running || listeners.size === 0) return
  running = new AbortController()
  void run(running)
}

function stop() {
  running?.abort()
  running = undefined
}

onSessionChange((state) => (state === 'signed-in' ? start() : stop()))

/**
 * A count that grows when an event `concerns` the screen (and at every `reset`, after which anything may have
 * changed): a screen reads its data again when it changes, e.g. as a dependency of the effect that reads it.
 */
export function useLiveChanges(concerns: (event: LiveEvent) => boolean): number {
  const [changes, setChanges] = useState(0)
  const latest = useRef(concerns)
  latest.current = concerns
  useEffect(() => {
    let gathering: ReturnType<typeof setTimeout> | undefined
    const listener: Listener = (event) => {
      if (gathering || (event.type !== 'reset' && !latest.current(event))) return
      gathering = setTimeout(() => {
        gathering = undefined
        setChanges((n) => n + 1)
      }, GATHER_MS)
    }
    listeners.add(listener)
    start()
    return () => {
      clearTimeout(gathering)
      listeners.delete(listener)
      if (listeners.size === 0) stop()
    }
  }, [])
  return changes
}
