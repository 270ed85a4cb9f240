import type { Actor } from '../../domain/auth/actor'
import {
  LIVE_HEARTBEAT_MS,
  LIVE_REPLAY_LIMIT,
  MEMBER_CHANGED,
  mayReceive,
  type LiveAudience,
  type LiveEvent,
} from '../../domain/webhooks/live-event'
import { sessionOf } from '../auth/authenticate'
import type { AccessTokens } from '../ports/access-tokens'
import type { Clock } from '../ports/clock'
import type { LiveEventFeed } from '../ports/live-event-feed'
import type { Logger } from '../ports/logger'
import type { Repositories } from '../ports/repositories'

/** Where one stream's events go: the HTTP route writes them as server-sent events. */
export interface LiveStreamSink {
  event(event: LiveEvent): void
  /** What the client missed cannot be replayed: it reloads what it shows. */
  reset(): void
  heartbeat(): void
  /** The stream is over: its token expired, its session ended, its member lost access, or the service stops. */
  end(): void
}

interface OpenStream {
  token: string
  actor: Actor
  sink: LiveStreamSink
  expiry: ReturnType<typeof setTimeout>
  /** Events that arrived while the stream's replay was read, sent after it. */
  held?: LiveEvent[]
  /**
   * The ids its replay sent. An event the feed was already bringing (its audience still being read) reaches the
   * stream after its replay: it is not sent twice. At most the replay's limit of ids.
   */
  replayed: ReadonlySet<LiveEvent['id']>
}

/**
 * The open live streams of this instance (docs/events.md "The live stream"): each gets its organization's
 * committed events as the feed brings them, as far as its member may read them (`mayReceive`, checked
 * against the member's current record), after the events it missed when it comes back with the id of the
 * last one it had. It ends when its token expires, and at once when its member signs out, loses a session
 * or its access, on any instance (the `member.changed` event makes each check its streams again).
 */
export class LiveStreams {
  private readonly streams = new Map<string, Set<OpenStream>>()
  private started: Promise<void> | undefined
  private heartbeats: ReturnType<typeof setInterval> | undefined

  constructor(
    private readonly repositories: Repositories,
    private readonly feed: LiveEventFeed,
    private readonly accessTokens: AccessTokens,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly heartbeatMs = LIVE_HEARTBEAT_MS,
  ) {}

  /**
   * Opens a stream for the bearer of `token` (401 when it is not a live session's); with `lastEventId`, what
   * followed that event is sent first, or `reset` when it is no longer kept. Answers the stream's close.
   */
  async open(token: string | undefined, lastEventId: string | undefined, sink: LiveStreamSink): Promise<() => void> {
    const { actor, expiresAt } = await sessionOf(this.repositories, this.accessTokens, token)
    await this.start()
    const stream: OpenStream = {
      token: token!,
      actor,
      sink,
      held: [],
      replayed: new Set(),
      expiry: setTimeout(() => this.end(stream), Math.max(0, expiresAt.getTime() - this.clock.now().getTime())),
    }
    const open = this.streams.get(actor.organizationId) ?? new Set()
    this.streams.set(actor.organizationId, open.add(stream))
    try {
      const missed = lastEventId === undefined ? [] : await this.missed(actor, lastEventId)
      if (missed === 'reset') sink.reset()
      else for (const event of missed) sink.event(event)
      stream.replayed = new Set(missed === 'reset' ? [] : missed.map((event) => event.id))
      for (const event of stream.held ?? []) this.send(stream, event)
      stream.held = undefined
    } catch (error) {
      this.remove(stream)
      throw error
    }
    return () => this.remove(stream)
  }

  /** Ends every stream and stops listening (shutdown). */
  async close(): Promise<void> {
    for (const open of this.streams.values()) for (const stream of open) this.end(stream)
    clearInterval(this.heartbeats)
    if (this.started) await this.feed.stop()
    this.started = undefined
  }

  private start(): Promise<void> {
    this.started ??= this.feed
      .start((events) => this.deliver(events))
      .catch((error) => {
        this.started = undefined
        throw error
      })
    this.heartbeats ??= setInterval(() => this.beat(), this.heartbeatMs)
    return this.started
  }

  private beat() {
    for (const open of this.streams.values()) for (const stream of open) stream.sink.heartbeat()
  }

  /** What followed `lastEventId` in the organization, as the actor may see it, or `reset` when it is not all kept. */
  private async missed(actor: Actor, lastEventId: string): Promise<LiveEvent[] | 'reset'> {
    if (!/^\d{1,15}$/.test(lastEventId)) return 'reset'
    const last = Number(lastEventId)
    const kept = await this.repositories.liveEvents.bounds()
    // The newest event is never purged: an id above it is not this database's; one below the lowest kept lost what followed it.
    if (!kept || last > kept.highest || last < kept.lowest - 1) return 'reset'
    const events = await this.repositories.liveEvents.replay(actor.organizationId, last, LIVE_REPLAY_LIMIT + 1)
    if (events.length > LIVE_REPLAY_LIMIT) return 'reset'
    const shown: LiveEvent[] = []
    for (const event of events) if (mayReceive(actor, await this.audienceOf(event))) shown.push(event)
    return shown
  }

  private async deliver(events: readonly LiveEvent[]): Promise<void> {
    for (const event of events) {
      const open = this.streams.get(event.organizationId)
      if (!open || open.size === 0) continue
      try {
        if (event.type === MEMBER_CHANGED) await this.checkAgain([...open].filter((s) => s.actor.memberId === event.data.memberId))
        else this.fanOut(open, event, await this.audienceOf(event))
      } catch (error) {
        this.logger.error('a live event could not be sent to its streams', { error, eventId: event.id })
      }
    }
  }

  private fanOut(open: Set<OpenStream>, event: LiveEvent, audience: LiveAudience) {
    for (const stream of open) {
      if (!mayReceive(stream.actor, audience)) continue
      if (stream.held) stream.held.push(event)
      else this.send(stream, event)
    }
  }

  private send(stream: OpenStream, event: LiveEvent) {
    if (!stream.replayed.has(event.id)) stream.sink.event(event)
  }

  /** Each stream's member as it is now: a stream whose session or access ended ends; the others read with the new rights. */
  private async checkAgain(streams: readonly OpenStream[]) {
    for (const stream of streams) {
      try {
        stream.actor = (await sessionOf(this.repositories, this.accessTokens, stream.token)).actor
      } catch {
        this.end(stream)
      }
    }
  }

  private async audienceOf({ organizationId, type, data }: LiveEvent): Promise<LiveAudience> {
    switch (type) {
      case 'need.created':
      case 'need.updated':
      case 'note.added':
      case 'referral.received':
      case 'referral.status_changed':
        return this.needAudience(organizationId, data.needId)
      case 'sms.received':
        return data.needId ? this.needAudience(organizationId, data.needId) : { kind: 'messages' }
      case 'message.attached': {
        const need = data.needId ? await this.repositories.needs.findById(organizationId, data.needId) : undefined
        return { kind: 'messages', ...(need ? { partnerId: need.partnerId } : {}) }
      }
      case 'sms.status': {
        if (data.needId) return this.needAudience(organizationId, data.needId)
        const text = data.interactionId ? await this.repositories.interactions.findById(organizationId, data.interactionId) : undefined
        return text?.needId ? this.needAudience(organizationId, text.needId) : { kind: 'messages' }
      }
      case 'constituent.created':
      case 'constituent.merged':
      case 'constituent.erased':
      case 'household_match.resolved':
        return { kind: 'constituents' }
      case MEMBER_CHANGED:
        return { kind: 'nobody' }
    }
  }

  /** A need's events reach whoever sees its partner now; one no longer found, only those who see the whole organization. */
  private async needAudience(organizationId: string, needId: string | undefined): Promise<LiveAudience> {
    const need = needId ? await this.repositories.needs.findById(organizationId, needId) : undefined
    return need ? { kind: 'need', partnerId: need.partnerId } : { kind: 'organization' }
  }

  private end(stream: OpenStream) {
    if (this.remove(stream)) stream.sink.end()
  }

  private remove(stream: OpenStream): boolean {
    clearTimeout(stream.expiry)
    const open = this.streams.get(stream.actor.organizationId)
    const removed = open?.delete(stream) ?? false
    if (open?.size === 0) this.streams.delete(stream.actor.organizationId)
    return removed
  }
}
