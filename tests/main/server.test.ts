import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SQLITE_MIGRATIONS } from '../../src/adapters/persistence/sqlite/migrations'
import { SqliteDatabase } from '../../src/adapters/persistence/sqlite/sqlite-database'
import { PortInUseError, startServer, type RunningServer } from '../../src/main/server'
import { testConfig } from '../support/world'

const started: RunningServer<unknown>[] = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.stop()))
})
const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
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
    await expect(startServer(configOn(port), {}, async () => Promise.reject(new Error('bootstrap failed')))).rejects.toThrow(
      'bootstrap failed',
    )
    // Nothing listens any more: the port is free for the next try.
    const again = await startServer(configOn(port))
    started.push(again)
    expect((await fetch(`${again.url}/healthz`)).status).toBe(200)
  })
})

describe('upgrade by restart', () => {
  test('a server started on a SQLite file at an older schema logs where its copy is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intake-upgrade-'))
    dirs.push(dir)
    const path = join(dir, 'intake.sqlite')
    const old = new SqliteDatabase(path)
    await old.migrate(SQLITE_MIGRATIONS.slice(0, -1))
    await old.close()
    const logs: Array<{ message: string; fields?: Record<string, unknown> }> = []
    const record = (message: string, fields?: Record<string, unknown>) => void logs.push({ message, ...(fields ? { fields } : {}) })

    const server = await startServer(testConfig({ DATABASE_URL: `sqlite:${path}`, PORT: '0', HOST: '127.0.0.1' }), {
      logger: { debug: record, info: record, warn: record, error: record },
    })
    await server.stop()

    const said = logs.find((l) => l.message === 'the database was copied before migrating it')
    expect(String(said?.fields?.backup)).toStartWith(`${path}.pre-${SQLITE_MIGRATIONS.at(-1)!.tag}-`)
    expect(existsSync(String(said?.fields?.backup))).toBe(true)
  })
})
