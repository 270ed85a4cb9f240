import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { DeliveryChannel, DeliveryMetrics, IntakeChannel, NeedMetrics, TextEvent, TextMetrics } from '../../application/ports/metrics'
import type { OutboxBacklog } from '../../application/ports/repositories/outbox-repository'
import { DATABASE_OUTAGE_KINDS, type DatabaseOutageKind } from '../../application/ports/persistence'

/**
 * Default gauges left out: on Bun, `v8.getHeapSpaceStatistics()` walks the whole JavaScript heap, so each
 * scrape would stop the server for a time that grows with the heap (half a second at a few million
 * objects). `nodejs_heap_size_*_bytes` still show the heap, read without a walk. (prom-client still
 * probes the function once, when the first scrape sets these figures up.)
 */
const HEAP_WALKING_METRICS = [
  'nodejs_heap_space_size_total_bytes',
  'nodejs_heap_space_size_used_bytes',
  'nodejs_heap_space_size_available_bytes',
]

/** The process's own figures (memory, CPU, event-loop lag), collected once per process however many servers it runs. */
let processRegistry: Registry | undefined
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry()
    collectDefaultMetrics({ register: processRegistry })
    for (const name of HEAP_WALKING_METRICS) processRegistry.removeSingleMetric(name)
  }
  return processRegistry
}

const INTAKE_CHANNELS: readonly IntakeChannel[] = ['staff', 'public_api', 'form']

/** Seconds, the unit Prometheus expects; buckets from a fast read to a slow provider call. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/**
 * The figures of `GET /metrics`, in Prometheus's text format (prom-client). Labels are bounded by design:
 * route templates (never concrete paths), methods, statuses, channels. Nothing names an organization or a person.
 */
export class PrometheusMetrics implements DeliveryMetrics, NeedMetrics, TextMetrics {
  private readonly registry = new Registry()
  private readonly requests = new Counter({
    name: 'intake_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  })
  private readonly durations = new Histogram({
    name: 'intake_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  })
  private readonly sentMessages = new Counter({
    name: 'intake_messages_sent_total',
    help: 'Messages the provider or receiver took, by channel (sms, email, webhook)',
    labelNames: ['channel'] as const,
    registers: [this.registry],
  })
  private readonly failedMessages = new Counter({
    name: 'intake_message_failures_total',
    help: 'Failed tries to send a message, by channel; final="true" when no other try will be made',
    labelNames: ['channel', 'final'] as const,
    registers: [this.registry],
  })
  private readonly sentNotifications = new Counter({
    name: 'intake_notifications_sent_total',
    help: 'Notifications of staff about needs (emails) the provider took',
    registers: [this.registry],
  })
  private readonly failedNotifications = new Counter({
    name: 'intake_notification_failures_total',
    help: 'Failed tries to send a notification of staff; final="true" when no other try will be made',
    labelNames: ['final'] as const,
    registers: [this.registry],
  })
  private readonly openedNeeds = new Counter({
    name: 'intake_needs_opened_total',
    help: 'Needs recorded, by channel (staff, public_api, form)',
    labelNames: ['channel'] as const,
    registers: [this.registry],
  })
  private readonly resolvedNeeds = new Counter({
    name: 'intake_needs_resolved_total',
    help: 'Needs resolved (a need reopened and resolved again counts twice)',
    registers: [this.registry],
  })
  private readonly texts = new Counter({
    name: 'intake_texts_total',
    help: 'Texts received, sent (the provider took them), delivered and failed, across organizations',
    labelNames: ['event'] as const,
    registers: [this.registry],
  })
  private readonly databaseErrors = new Counter({
    name: 'intake_database_errors_total',
    help: 'Requests answered 503 because the database could not serve them, by kind (unreachable, disk_full, too_many_connections …)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  })

  /** `walBytes`: the SQLite write-ahead log's size, for a SQLite file (docs/self-hosting.md "Long reads"). */
  constructor(backlog: () => Promise<OutboxBacklog>, walBytes?: () => number) {
    // While the database cannot answer, the outbox's figures keep their last values: the scrape that shows
    // the outage's counts must not fail with it.
    const backlogOrNothing = () => backlog().catch(() => undefined)
    // Every kind from 0, so a rate over the first outage of a kind sees it rise.
    for (const kind of DATABASE_OUTAGE_KINDS) this.databaseErrors.inc({ kind }, 0)
    for (const channel of INTAKE_CHANNELS) this.openedNeeds.inc({ channel }, 0)
    for (const final of ['true', 'false']) this.failedNotifications.inc({ final }, 0)
    for (const event of ['received', 'sent', 'delivered', 'failed']) this.texts.inc({ event }, 0)
    // Read at each scrape (prom-client collects metrics side by side, so each reads for itself: one indexed query).
    new Gauge({
      name: 'intake_outbox_messages',
      help: 'Messages waiting in the outbox, by status (pending, sending)',
      labelNames: ['status'] as const,
      registers: [this.registry],
      async collect() {
        const figures = await backlogOrNothing()
        if (!figures) return
        this.set({ status: 'pending' }, figures.pending)
        this.set({ status: 'sending' }, figures.sending)
      },
    })
    new Gauge({
      name: 'intake_outbox_oldest_message_age_seconds',
      help: 'Age of the oldest message not yet sent or failed (0 when none waits)',
      registers: [this.registry],
      async collect() {
        const figures = await backlogOrNothing()
        if (!figures) return
        this.set(figures.oldestQueuedAt ? Math.max(0, (Date.now() - figures.oldestQueuedAt.getTime()) / 1000) : 0)
      },
    })
    if (walBytes) {
      new Gauge({
        name: 'intake_sqlite_wal_bytes',
        help: "Size of the SQLite database's write-ahead log file, in bytes",
        registers: [this.registry],
        collect() {
          this.set(walBytes())
        },
      })
    }
  }

  request(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) }
    this.requests.inc(labels)
    this.durations.observe(labels, seconds)
  }

  databaseError(kind: DatabaseOutageKind): void {
    this.databaseErrors.inc({ kind })
  }

  sent(channel: DeliveryChannel): void {
    this.sentMessages.inc({ channel })
    if (channel === 'sms') this.texts.inc({ event: 'sent' })
  }

  failed(channel: DeliveryChannel, final: boolean): void {
    this.failedMessages.inc({ channel, final: String(final) })
    // A text given up is a failed text, as one the provider reports failed.
    if (channel === 'sms' && final) this.texts.inc({ event: 'failed' })
  }

  text(event: TextEvent): void {
    this.texts.inc({ event })
  }

  notificationSent(): void {
    this.sentNotifications.inc()
  }

  notificationFailed(final: boolean): void {
    this.failedNotifications.inc({ final: String(final) })
  }

  opened(channel: IntakeChannel): void {
    this.openedNeeds.inc({ channel })
  }

  resolved(): void {
    this.resolvedNeeds.inc()
  }

  readonly contentType = this.registry.contentType

  /** The text of one scrape: this server's figures and the process's. */
  async render(): Promise<string> {
    return (await this.registry.metrics()) + (await processMetrics().metrics())
  }
}
