import { describe, expect, test } from 'bun:test'
import { PORTS } from '../../../src/main/container'
import { api, openConventionsServer } from './conventions-support'
import { expectProblem } from './helpers'

// docs/operations.md (health), over real HTTP: an orchestrator must tell a live process from one whose
// database does not answer, without credentials.
openConventionsServer()

describe('health', () => {
  test('/healthz answers 200 {status: ok} without credentials', async () => {
    const response = await api.call('GET', '/healthz')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('application/json')
    expect(response.body).toEqual({ status: 'ok' })
  })

  test('/readyz answers 200 {status: ready} while the database answers', async () => {
    const response = await api.call('GET', '/readyz')
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ status: 'ready' })
  })

  test('/readyz answers 503 Service unavailable when the database does not answer', async () => {
    const persistence = api.server.container.get(PORTS.persistence)
    const ping = persistence.ping
    try {
      persistence.ping = async () => false
      expectProblem(await api.call('GET', '/readyz'), 503, 'Service unavailable')
      persistence.ping = () => Promise.reject(new Error('SQLITE_BUSY: database is locked'))
      const body = expectProblem(await api.call('GET', '/readyz'), 503, 'Service unavailable')
      expect(JSON.stringify(body)).not.toContain('SQLITE')
    } finally {
      persistence.ping = ping
    }
    expect((await api.call('GET', '/readyz')).status).toBe(200)
  })
})
