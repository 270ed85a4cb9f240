import { Elysia, t } from 'elysia'
import type { Persistence } from '../../application/ports/persistence'
import { problemResponse } from './problem'

// contract §1: no auth on either
export function healthRoutes(persistence: Persistence) {
  return new Elysia({ name: 'health', detail: { tags: ['Health'], security: [] } })
    .get('/healthz', () => ({ status: 'ok' as const }), {
      response: { 200: t.Object({ status: t.Literal('ok') }) },
      detail: { summary: 'The process is alive' },
    })
    .get(
      '/readyz',
      async () => {
        const ready = await persistence.ping().catch(() => false)
        return ready ? { status: 'ready' as const } : problemResponse(503, 'The database does not answer')
      },
      { detail: { summary: 'The database answers' } },
    )
}
