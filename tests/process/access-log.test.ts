import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { killAllServers, ServeProcess, waitFor } from './cli-process'

// docs/observability.md "Logs": the log is buffered, yet no line is lost when the service stops on SIGTERM
// or dies of an uncaught error, and a quiet service's lines still come out within a second or so.

const dir = mkdtempSync(join(tmpdir(), 'intake-access-log-'))
afterAll(async () => {
  await killAllServers()
  rmSync(dir, { recursive: true, force: true })
})

const accessLines = (output: string, route: string) =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { message?: string; route?: string; requestId?: string })
    .filter((line) => line.message === 'request' && line.route === route)

test('every request of a served process is in its access log after SIGTERM, and a lone one comes out on its own', async () => {
  // The default level: the access log on.
  const server = await ServeProcess.start({ DATABASE_URL: `sqlite:${join(dir, 'serve.sqlite')}` })
  const first = await fetch(`${server.url}/readyz`)
  expect(first.status).toBe(200)
  // Nothing else is written meanwhile: the line comes out by the buffer's own clock.
  expect(await waitFor(() => accessLines(server.output(), '/readyz').length === 1, 10_000, 50)).toBe(true)

  const ids = new Set<string>()
  for (let i = 0; i < 60; i++) {
    const response = await fetch(`${server.url}/healthz`)
    expect(response.status).toBe(200)
    ids.add(response.headers.get('x-request-id')!)
  }
  expect(await server.stop('SIGTERM')).toBe(0)
  // (The start's own readiness checks are logged too.)
  const logged = new Set(accessLines(server.output(), '/healthz').map((line) => line.requestId))
  expect([...ids].filter((id) => !logged.has(id))).toEqual([])
})

test('a crash writes the lines still buffered before the process ends', async () => {
  const lines = 25 // well under the buffer's size: without the exit's write, none would appear
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, 'fixtures', 'log-then-crash.ts'), String(lines)], {
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [code, output] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
  expect(code).not.toBe(0)
  expect(output).toContain('crashed on purpose')
  expect(accessLines(output, '/healthz').map((line) => (line as { line?: number }).line)).toEqual([...Array(lines).keys()])
})
