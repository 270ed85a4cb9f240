import type { Container } from 'inversify'
import { createHttpApp } from '../adapters/http/app'
import { DispatchOutbox } from '../application/messaging/dispatch-outbox'
import type { Config } from './config'
import { createContainer, PORTS, type ContainerOverrides } from './container'
import { startOutboxWorker, type RunningWorker } from './outbox-worker'

/**
 * Past this Bun itself answers a bare 413, without problem+json. The 256 KiB limit (MAX_BODY_BYTES) is
 * enforced by the app, which answers problem+json without buffering more than that; this is only a backstop.
 */
const BUN_BODY_BACKSTOP_BYTES = 64 * 1024 * 1024

export interface RunningServer {
  url: string
  container: Container
  stop(): Promise<void>
}

/** Builds the container, brings the database up to date and listens. */
export async function startServer(config: Config, overrides: ContainerOverrides = {}): Promise<RunningServer> {
  const container = createContainer(config, overrides)
  const persistence = container.get(PORTS.persistence)
  await persistence.migrate()
  const app = createHttpApp({
    container,
    logger: container.get(PORTS.logger),
    persistence,
    rateLimiters: { publicIntake: container.get(PORTS.publicIntakeRateLimiter), auth: container.get(PORTS.authRateLimiter) },
    trustProxy: config.trustProxy,
    publicBaseUrl: config.publicBaseUrl,
  }).listen({ port: config.port, hostname: config.host, maxRequestBodySize: BUN_BODY_BACKSTOP_BYTES })
  const server = app.server!
  const worker = config.serveRunsWorker ? startWorker(container, config) : undefined
  return {
    url: `http://${server.hostname === '0.0.0.0' ? 'localhost' : server.hostname}:${server.port}`,
    container,
    async stop() {
      // Stop taking requests and claims at once, let what is in flight finish, then close the database.
      await Promise.all([app.stop(), worker?.stop()])
      await persistence.close()
    },
  }
}

/** The outbox worker alone (`intake worker`, for deployments that run it apart from the HTTP servers). */
export function startWorker(container: Container, config: Config): RunningWorker {
  return startOutboxWorker(container.get(DispatchOutbox), container.get(PORTS.logger), config.outboxPollMs)
}
