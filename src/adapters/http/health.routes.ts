import { Elysia, t } from 'elysia'
import type { Persistence } from '../../application/ports/persistence'
import { UnavailableError } from '../../domain/errors'
import { problems } from './common.schemas'

/** Where the process is in its life: only `ready` takes traffic (docs/faults.md "Shutdown"). */
export type Lifecycle = 'starting' | 'ready' | 'stopping'

// docs/operations.md: no auth on either
export function healthRoutes(persistence: Persistence, lifecycle: () => Lifecycle) {
  return new Elysia({ name: 'health', detail: { tags: ['Health'], security: [] } })
    .get('/healthz', () => ({ status: 'ok' as const }), {
      response: { 200: t.Object({ status: t.Literal('ok') }) },
      detail: {
        operationId: 'checkLiveness',
        summary: 'The process is alive',
        description: 'Anonymous, for load balancers: answers while the process runs, whatever the database does.',
      },
    })
    .get(
      '/readyz',
      async () => {
        const state = lifecycle()
        if (state === 'starting') throw new UnavailableError('The service is still starting')
        if (state === 'stopping') throw new UnavailableError('The service is shutting down')
        const ready = await persistence.ping().catch(() => false)
        if (!ready) throw new UnavailableError('The database does not answer')
        return { status: 'ready' as const }
      },
      {
        response: { 200: t.Object({ status: t.Literal('ready') }), ...problems(503) },
        detail: {
          operationId: 'checkReadiness',
          summary: 'Started (database migrated, first-start setup done) and the database answers',
          description: 'Anonymous, for orchestrators: 503 while starting, while shutting down, or while the database does not answer.',
        },
      },
    )
}
