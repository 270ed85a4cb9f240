import type { Container } from 'inversify'
import { createHttpApp } from '../adapters/http/app'
import { SystemClock } from '../adapters/system/system-clock'
import { openToOthers } from '../adapters/system/private-files'
import type { Lifecycle } from '../adapters/http/health.routes'
import type { Config } from './config'
import { createContainer, PORTS, useCasesOf, type ContainerOverrides } from './container'
import { startOutboxWorker, type RunningWorker } from './outbox-worker'
import { startPeriodicJobs } from './periodic-job'
import { VERSION } from './version'

/**
 * Past this Bun itself answers a bare 413, without problem+json. The 256 KiB limit (MAX_BODY_BYTES) is
 * enforced by the app, which answers problem+json without buffering more than that; this is only a backstop.
 */
const BUN_BODY_BACKSTOP_BYTES = 64 * 1024 * 1024

export interface RunningServer<Prepared = void> {
  url: string
  container: Container
  /** What `prepare` gave. */
  prepared: Prepared
  stop(): Promise<void>
}

/** Said when the port is taken: Bun's own message names neither the port nor what to do. */
export class PortInUseError extends Error {
  constructor(host: string, port: number) {
    super(
      `Port ${port} on ${host} is already in use: another intake server (or another program) listens there. Stop it, or set PORT to a free port.`,
    )
  }
}

/** The service's HTTP app over `container`, as `intake serve` answers (also used in process, without a socket). */
export function serviceApp(container: Container, config: Config, lifecycle: () => Lifecycle) {
  return createHttpApp({
    useCases: useCasesOf(container),
    logger: container.get(PORTS.logger),
    accessLog: container.get(PORTS.accessLog),
    persistence: container.get(PORTS.persistence),
    lifecycle,
    rateLimiters: {
      publicIntake: container.get(PORTS.publicIntakeRateLimiter),
      auth: container.get(PORTS.authRateLimiter),
      federation: container.get(PORTS.federationRateLimiter),
      publicDirectory: container.get(PORTS.publicDirectoryRateLimiter),
    },
    trustProxy: config.trustProxy,
    publicBaseUrl: config.publicBaseUrl,
    version: VERSION,
    metrics: container.get(PORTS.metrics),
    ...(config.metricsToken ? { metricsToken: config.metricsToken } : {}),
    checkAnswers: config.checkAnswers,
  })
}

/**
 * Builds the container, brings the database up to date and listens; then runs `prepare` (the first-start
 * bootstrap) while /readyz answers 503, and only after it is ready.
 */
export async function startServer<Prepared = void>(
  config: Config,
  overrides: ContainerOverrides = {},
  prepare: (container: Container) => Promise<Prepared> = async () => undefined as Prepared,
): Promise<RunningServer<Prepared>> {
  const container = createContainer(config, overrides)
  const persistence = container.get(PORTS.persistence)
  await bringUpToDate(container)
  let lifecycle: Lifecycle = 'starting'
  const app = serviceApp(container, config, () => lifecycle)
  try {
    // Elysia asks Bun for SO_REUSEPORT, which lets a second server share the port (and the SQLite file) silently.
    app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: BUN_BODY_BACKSTOP_BYTES, reusePort: false })
  } catch (error) {
    await persistence.close()
    throw (error as { code?: string }).code === 'EADDRINUSE' ? new PortInUseError(config.host, config.port) : error
  }
  const server = app.server!
  let prepared: Prepared
  try {
    prepared = await prepare(container)
  } catch (error) {
    await app.stop()
    await persistence.close()
    throw error
  }
  lifecycle = 'ready'
  const worker = config.serveRunsWorker ? startWorker(container, config) : undefined
  return {
    url: `http://${server.hostname === '0.0.0.0' ? 'localhost' : server.hostname}:${server.port}`,
    container,
    prepared,
    async stop() {
      // Claims stop at once. Requests are still answered for the drain (each closing its connection, /readyz
      // 503) so kept-alive connections end cleanly; then the server stops listening, closes the connections
      // left idle and lets what is in flight (and the work requests left) finish; then the database closes.
      lifecycle = 'stopping'
      const workerStopped = worker?.stop()
      // Live streams never end by themselves: they end now, and their clients reconnect to another instance.
      await useCasesOf(container).webhooks.stream.close()
      await Bun.sleep(config.shutdownDrainMs)
      await Promise.all([app.stop(), workerStopped])
      await container.get(PORTS.deferredWork).settled()
      await persistence.close()
    },
  }
}

/**
 * Applies what the database has not seen (says where the copy made before, on SQLite, is, and what a killed
 * one left), and sets the service's clock by the database's, before anything is written.
 */
export async function bringUpToDate(container: Container): Promise<void> {
  const persistence = container.get(PORTS.persistence)
  const { backup, leftoversRemoved } = await persistence.migrate()
  const logger = container.get(PORTS.logger)
  if (leftoversRemoved) logger.warn('removed what a start killed while copying the database left beside it', { files: leftoversRemoved })
  const { database } = container.get(PORTS.config)
  const open = database.kind === 'sqlite' && database.path !== ':memory:' ? openToOthers(database.path) : []
  // docs/privacy.md "Files on disk": files an older version or a hand left open keep their modes; the operator hears of them.
  if (open.length > 0) logger.warn('files readable by other users', { files: open, fix: 'chmod 600 the files, 700 the folder' })
  if (backup) logger.info('the database was copied before migrating it', { backup })
  const clock = container.get(PORTS.clock)
  if (clock instanceof SystemClock && persistence.databaseTime) clock.follow(await persistence.databaseTime())
}

/**
 * The worker alone (`intake worker`, for deployments that run it apart from the HTTP servers): the outbox,
 * the audit trail's retention purge, the daily digests and the organizations' retention of people and needs'
 * text.
 */
export function startWorker(container: Container, config: Config): RunningWorker {
  const { operations } = useCasesOf(container)
  const logger = container.get(PORTS.logger)
  const jobs = [startOutboxWorker(operations.dispatchOutbox, logger, config.outboxPollMs), ...startPeriodicJobs(operations, logger)]
  return { stop: async () => void (await Promise.all(jobs.map((job) => job.stop()))) }
}
