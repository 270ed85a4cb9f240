import type { Container } from 'inversify'
import { createHttpApp } from '../adapters/http/app'
import { MAX_BODY_BYTES } from '../adapters/http/problem'
import type { Config } from './config'
import { createContainer, PORTS, type ContainerOverrides } from './container'

export interface RunningServer {
  url: string
  container: Container
  stop(): Promise<void>
}

/** Builds the container, applies migrations (inside createPersistence) and listens. */
export async function startServer(config: Config, overrides: ContainerOverrides = {}): Promise<RunningServer> {
  const container = createContainer(config, overrides)
  const persistence = container.get(PORTS.persistence)
  const app = createHttpApp({
    container,
    logger: container.get(PORTS.logger),
    persistence,
    publicIntakeRateLimiter: container.get(PORTS.publicIntakeRateLimiter),
    trustProxy: config.trustProxy,
  }).listen({ port: config.port, hostname: config.host, maxRequestBodySize: MAX_BODY_BYTES + 1024 })
  const server = app.server!
  return {
    url: `http://${server.hostname === '0.0.0.0' ? 'localhost' : server.hostname}:${server.port}`,
    container,
    async stop() {
      await app.stop()
      await persistence.close()
    },
  }
}
