import { afterEach, describe, expect, test } from 'bun:test'
import { createServer, type AddressInfo } from 'node:net'
import { PortInUseError, startServer, type RunningServer } from '../../src/main/server'
import { testConfig } from '../support/world'

const started: RunningServer<unknown>[] = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.stop()))
})

/** A local port nothing listens on right now. */
async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()))
  const { port } = probe.address() as AddressInfo
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

const configOn = (port: number) => testConfig({ PORT: String(port), HOST: '127.0.0.1' })

describe('startServer', () => {
  test('/readyz answers 503 until the first-start work is done, /healthz 200 throughout', async () => {
    const port = await freePort()
    let finish!: () => void
    const preparing = new Promise<void>((resolve) => (finish = resolve))
    let preparingStarted!: () => void
    const prepareCalled = new Promise<void>((resolve) => (preparingStarted = resolve))
    const starting = startServer(configOn(port), {}, async () => {
      preparingStarted()
      await preparing
      return 'prepared'
    })
    await prepareCalled
    const base = `http://127.0.0.1:${port}`
    expect((await fetch(`${base}/healthz`)).status).toBe(200)
    const starting503 = await fetch(`${base}/readyz`)
    expect(starting503.status).toBe(503)
    expect(starting503.headers.get('content-type')).toStartWith('application/problem+json')
    expect(((await starting503.json()) as { detail: string }).detail).toBe('The service is still starting')
    finish()
    const server = await starting
    started.push(server)
    expect(server.prepared).toBe('prepared')
    expect((await fetch(`${base}/readyz`)).status).toBe(200)
  })

  test('a second server on a port in use fails to start with a message naming the port; the first keeps serving', async () => {
    const first = await startServer(configOn(0))
    started.push(first)
    const port = Number(new URL(first.url).port)
    const second = startServer(configOn(port))
    await expect(second).rejects.toBeInstanceOf(PortInUseError)
    await expect(second).rejects.toThrow(`Port ${port} on 127.0.0.1 is already in use`)
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200)
  })

  test('a failing first-start step stops the server and says why', async () => {
    const port = await freePort()
    await expect(startServer(configOn(port), {}, async () => Promise.reject(new Error('bootstrap failed')))).rejects.toThrow('bootstrap failed')
    // Nothing listens any more: the port is free for the next try.
    const again = await startServer(configOn(port))
    started.push(again)
    expect((await fetch(`${again.url}/healthz`)).status).toBe(200)
  })
})
