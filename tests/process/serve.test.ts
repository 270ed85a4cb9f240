import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ApiClient, killAllServers, runCli, ServeProcess } from './cli-process'

const dir = mkdtempSync(join(tmpdir(), 'intake-serve-'))
afterAll(async () => {
  await killAllServers()
  rmSync(dir, { recursive: true, force: true })
})

test('the first start creates an admin whose printed password logs in, and names the console’s address; a second serve on the same port stops with a clear message', async () => {
  const env = { DATABASE_URL: `sqlite:${join(dir, 'intake.sqlite')}`, LOG_LEVEL: 'warn' }
  const first = await ServeProcess.start(env)
  const password = /Admin password \(shown once\): (\S+)/.exec(first.output())?.[1]
  expect(password).toBeDefined()
  // It says where the staff console is, and that address answers the console's page.
  expect(first.output()).toContain(`Staff console: open ${first.url}/ in a browser and log in as admin@example.org with that password.`)
  expect((await fetch(`${first.url}/`)).headers.get('content-type')).toStartWith('text/html')
  expect((await fetch(`${first.url}/readyz`)).status).toBe(200)
  const api = new ApiClient(first.url)
  await api.login('admin@example.org', password!)
  expect((await api.call('GET', '/api/needs')).status).toBe(200)

  const port = new URL(first.url).port
  const second = await runCli(['serve'], { ...env, HOST: '127.0.0.1', PORT: port })
  expect(second.code).toBe(1)
  expect(second.output).toContain(`Port ${port} on 127.0.0.1 is already in use`)
  expect(second.output).not.toContain('    at ')
  expect((await api.call('GET', '/api/needs')).status).toBe(200)
  expect(await first.stop('SIGTERM')).toBe(0)
})
