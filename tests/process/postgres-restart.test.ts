import { afterAll, describe, expect, test } from 'bun:test'
import { postgresAvailable } from '../support/postgres'
import { type ApiClient, killAllServers, ServeProcess, textsOf, waitFor } from './cli-process'
import { ThrowawayCluster } from '../support/throwaway-cluster'
import { baseEnv, clientsFor, createOrganization, writers } from './postgres-processes'

// PostgreSQL stopped and started again (`pg_ctl stop -m fast`, then start) under `intake serve` processes:
// idle, and under eight writing clients across two instances. Each on a cluster of its own.

const CONSTITUENT_PHONE = '+15557654322'
const clusters = new Set<ThrowawayCluster>()

afterAll(async () => {
  await killAllServers()
  for (const cluster of clusters) await cluster.remove()
})

/** A cluster of the test's own with one organization, and `count` servers on it. */
async function serversOnOwnCluster(count: number): Promise<{ cluster: ThrowawayCluster; servers: ServeProcess[]; clients: ApiClient[] }> {
  const cluster = await ThrowawayCluster.start()
  clusters.add(cluster)
  const env = baseEnv(cluster.url, { OUTBOX_POLL_MS: '50' })
  await createOrganization(env)
  const servers = await Promise.all(Array.from({ length: count }, () => ServeProcess.start(env, 30_000)))
  return { cluster, servers, clients: await clientsFor(servers) }
}

async function partnerOf(api: ApiClient): Promise<string> {
  const [partner] = await api.expect<Array<{ id: string }>>(200, 'GET', '/api/partners')
  return partner!.id
}

if (postgresAvailable())
  describe('a PostgreSQL restart under the service', () => {
    test('idle: 503 problem+json while it is away, 200 again after, the same process throughout', async () => {
      const { cluster, servers, clients } = await serversOnOwnCluster(1)
      const [server, api] = [servers[0]!, clients[0]!]
      const partnerId = await partnerOf(api)
      await api.expect(201, 'POST', '/api/needs', { partnerId })
      await api.expect(200, 'GET', '/readyz')

      await cluster.pause()
      let answer = await api.call('GET', '/api/needs')
      const unavailable = await waitFor(
        async () => {
          answer = await api.call('GET', '/api/needs')
          return answer.status === 503
        },
        15_000,
        100,
      )
      expect({ unavailable, status: answer.status }).toEqual({ unavailable: true, status: 503 })
      expect(answer.body).toMatchObject({ type: 'tag:intake.example,2026:problems/unavailable', title: 'Service unavailable', status: 503 })
      // The content type, and a write and the readiness check, while it is still away.
      const raw = await fetch(`${server.url}/api/needs`, { headers: { authorization: `Bearer ${api.token}` } })
      expect(raw.status).toBe(503)
      expect(raw.headers.get('content-type')).toStartWith('application/problem+json')
      expect((await api.call('POST', '/api/needs', { partnerId })).status).toBe(503)
      const ready = await fetch(`${server.url}/readyz`)
      expect(ready.status).toBe(503)
      expect(ready.headers.get('content-type')).toStartWith('application/problem+json')
      expect(server.exitCode).toBeNull()

      await cluster.resume()
      expect(await waitFor(async () => (await api.call('GET', '/api/needs')).status === 200, 20_000, 100)).toBe(true)
      expect(server.exitCode).toBeNull()
      const created = await api.expect<{ referenceNumber: string }>(201, 'POST', '/api/needs', { partnerId })
      expect(created.referenceNumber).toBe('REQ-1002')
      await api.expect(200, 'GET', '/readyz')

      // The outbox worker came through too: a text queued now is sent (the log provider).
      const constituent = await api.expect<{ id: string }>(201, 'POST', '/api/constituents', {
        firstName: 'Robin',
        phone: CONSTITUENT_PHONE,
      })
      const need = await api.expect<{ id: string }>(201, 'POST', '/api/needs', { partnerId, constituentId: constituent.id })
      await api.expect(202, 'POST', `/api/needs/${need.id}/sms`, { body: 'after the restart' })
      expect(await waitFor(async () => (await textsOf(api, need.id)).some((t) => t.deliveryStatus === 'sent'), 10_000, 50)).toBe(true)

      expect(await server.stop('SIGTERM')).toBe(0)
    }, 120_000)

    test('eight writers through two instances: 503 while it is away, 201 after, every instance alive and no acknowledged need lost', async () => {
      const { cluster, servers, clients } = await serversOnOwnCluster(2)
      const load = writers(clients, await partnerOf(clients[0]!), 8)
      const started = Date.now()
      const took: string[] = []
      const step = (name: string) => took.push(`${name} at ${Date.now() - started} ms`)
      try {
        // Transactions are open on both instances when the database goes.
        expect(await waitFor(() => load.count('before', 201, 0) >= 20 && load.count('before', 201, 1) >= 20, 30_000, 20)).toBe(true)
        load.enter('away')
        step('stopping PostgreSQL')
        await cluster.pause()
        step('stopped')
        expect(await waitFor(() => load.count('away', 503, 0) >= 4 && load.count('away', 503, 1) >= 4, 15_000, 20)).toBe(true)
        load.enter('back')
        step('503s seen, starting PostgreSQL')
        await cluster.resume()
        step('started')
        expect(await waitFor(() => load.count('back', 201, 0) >= 20 && load.count('back', 201, 1) >= 20, 30_000, 20)).toBe(true)
        step('201s again')
      } finally {
        await load.stop()
        const tally = (phase: string) =>
          ['201', '503', '500', 'no answer'].map(
            (s) => `${s}: ${load.answers.filter((a) => a.phase === phase && String(a.status) === s).length}`,
          )
        console.log(`restart under load: ${took.join(', ')}; before ${tally('before')}; away ${tally('away')}; back ${tally('back')}`)
      }
      for (const server of servers) {
        expect(server.exitCode).toBeNull()
        expect(server.output()).not.toContain('TypeError')
      }
      // Every answer was an acknowledged write or "unavailable": none refused as a bug, none unanswered.
      const statuses = new Set(load.answers.map((a) => a.status))
      expect([...statuses].sort()).toEqual([201, 503])
      const acknowledged = load.answers.flatMap((a) => (a.status === 201 ? [a.referenceNumber!] : []))
      expect(new Set(acknowledged).size).toBe(acknowledged.length)
      for (const api of clients) {
        const list = await fetch(`${api.baseUrl}/api/needs?limit=1`, { headers: { authorization: `Bearer ${api.token}` } })
        expect(list.status).toBe(200)
        expect(Number(list.headers.get('x-total-count'))).toBeGreaterThanOrEqual(acknowledged.length)
        await api.expect(200, 'GET', '/readyz')
      }
      await Promise.all(servers.map(async (s) => expect(await s.stop('SIGTERM')).toBe(0)))
    }, 120_000)
  })
