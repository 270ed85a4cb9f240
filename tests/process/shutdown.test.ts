import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { killAllServers, ServeProcess, waitFor } from './cli-process'

// SIGTERM with clients on kept-alive connections (docs/faults.md "Shutdown"): each connection's next
// request is answered, with `Connection: close`, or the connection is closed cleanly; none is reset.

const dir = mkdtempSync(join(tmpdir(), 'intake-shutdown-'))
afterAll(async () => {
  await killAllServers()
  rmSync(dir, { recursive: true, force: true })
})

/** One kept-alive HTTP/1.1 connection, read raw: what came back, and how it ended. */
class KeptAlive {
  private readonly socket: Socket
  received = ''
  ended: 'open' | 'closed cleanly' | 'reset' = 'open'

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1')
    this.socket.on('data', (chunk) => (this.received += chunk.toString()))
    this.socket.on('end', () => (this.ended = this.ended === 'open' ? 'closed cleanly' : this.ended))
    this.socket.on('error', (error: { code?: string }) => (this.ended = error.code === 'ECONNRESET' ? 'reset' : this.ended))
  }

  /** Sends one request; answers when its answer's head has come (or the connection ended). */
  async request(path: string): Promise<{ status: number; connection: string | undefined } | undefined> {
    const from = this.received.length
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
    await waitFor(() => this.received.includes('\r\n\r\n', from) || this.ended !== 'open', 10_000, 5)
    const head = this.received.slice(from).split('\r\n\r\n')[0]!
    const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]
    if (!status) return undefined
    return { status: Number(status), connection: /^connection: (.*)$/im.exec(head)?.[1]?.toLowerCase() }
  }
}

test('after SIGTERM every kept-alive connection is answered with Connection: close or closed cleanly, never reset; the exit is 0', async () => {
  // The drain is long enough for the requests below to come within it on a busy machine.
  const server = await ServeProcess.start({
    DATABASE_URL: `sqlite:${join(dir, 'intake.sqlite')}`,
    LOG_LEVEL: 'warn',
    SHUTDOWN_DRAIN_MS: '3000',
  })
  const port = Number(new URL(server.url).port)
  const busy = Array.from({ length: 16 }, () => new KeptAlive(port))
  const idle = Array.from({ length: 4 }, () => new KeptAlive(port))
  const probe = new KeptAlive(port)
  for (const connection of [...busy, ...idle, probe])
    expect(await connection.request('/healthz')).toEqual({ status: 200, connection: undefined })

  server.kill('SIGTERM')
  // Once the server is shutting down (a request sent before it took the signal is answered as usual)...
  let probed: Awaited<ReturnType<KeptAlive['request']>>
  const shuttingDown = async () => {
    probed = await probe.request('/readyz')
    return probed?.status !== 200
  }
  expect(await waitFor(shuttingDown, 10_000)).toBe(true)
  expect(probed).toEqual({ status: 503, connection: 'close' })
  // ...the next request of every other connection: health, readiness and a problem answer alike.
  const paths = ['/healthz', '/readyz', '/api/needs']
  const answers = await Promise.all(busy.map((connection, i) => connection.request(paths[i % paths.length]!)))
  expect(answers.map((a) => a?.connection)).toEqual(busy.map(() => 'close'))
  expect(new Set(answers.map((a) => a!.status))).toEqual(new Set([200, 503, 401]))
  expect(await waitFor(() => busy.every((c) => c.ended === 'closed cleanly'), 10_000, 10)).toBe(true)

  // Connections that stay idle through the drain are closed by the server, cleanly.
  expect(await server.waitForExit(15_000)).toBe(0)
  expect(await waitFor(() => idle.every((c) => c.ended !== 'open'), 5_000, 10)).toBe(true)
  expect(idle.map((c) => c.ended)).toEqual(idle.map(() => 'closed cleanly'))
})
