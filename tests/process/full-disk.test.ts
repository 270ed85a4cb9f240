import { afterAll, expect, test } from 'bun:test'
import { statSync } from 'node:fs'
import { FROM_SOURCE, killAllServers, ServeProcess, waitFor, type Program } from './cli-process'
import { adminOf, serveDatabase, type ServeDatabase } from './workload'

// docs/reliability.md "The database out of disk or connections", as an operator meets it: the real
// `intake serve` on SQLite is given a file-size limit (prlimit) at the size its files have, so that no
// file of the database can grow, as on a full disk; then the limit is lifted.

const prlimit = Bun.which('prlimit')
/** serve with SIGXFSZ ignored, so that writing past the limit is an error (EFBIG) rather than the end of the process. */
const IGNORING_SIGXFSZ: Program = { command: ['sh', '-c', `trap '' XFSZ; exec "$0" "$@"`, ...FROM_SOURCE.command], cwd: FROM_SOURCE.cwd }

let database: ServeDatabase | undefined
afterAll(async () => {
  await killAllServers()
  await database?.drop()
})

test.skipIf(!prlimit || process.platform !== 'linux')(
  'a full disk: writes answer 503 with Retry-After and /readyz 503, never 500; both recover by themselves',
  async () => {
    database = await serveDatabase('sqlite')
    const serve = await ServeProcess.start({ ...database.env, LOG_LEVEL: 'info' }, 20_000, IGNORING_SIGXFSZ)
    const { api, partnerId } = await adminOf(serve)
    const setLimit = (soft: string) => expect(Bun.spawnSync([prlimit!, `--pid=${serve.pid}`, `--fsize=${soft}:`]).exitCode).toBe(0)
    const writeNeed = (n: number) =>
      fetch(`${serve.url}/api/needs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ partnerId, customFields: { description: `need ${n} ${'x'.repeat(2000)}` } }),
      })
    const ready = async () => (await fetch(`${serve.url}/readyz`)).status

    const sizes = [database.sqlitePath!, `${database.sqlitePath!}-wal`].map((file) => statSync(file, { throwIfNoEntry: false })?.size ?? 0)
    setLimit(String(Math.max(...sizes)))
    const statuses = new Set<number>()
    let refused: Response | undefined
    let n = 0
    await waitFor(
      async () => {
        const response = await writeNeed(++n)
        statuses.add(response.status)
        if (response.status === 503) refused = response
        return refused !== undefined
      },
      30_000,
      0,
    )
    expect(refused).toBeDefined()
    expect(refused!.headers.get('content-type')).toStartWith('application/problem+json')
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(((await refused!.json()) as { type: string }).type).toBe('tag:intake.example,2026:problems/unavailable')
    expect([...statuses].filter((status) => status !== 201 && status !== 503)).toEqual([])
    expect(await ready()).toBe(503)

    setLimit('unlimited')
    // Nothing is restarted or cleared by hand: the next writes go through, and readiness follows.
    expect(await waitFor(async () => (await writeNeed(++n)).status === 201, 20_000, 100)).toBe(true)
    expect(await ready()).toBe(200)
    const logged = serve
      .output()
      .split('\n')
      .filter((line) => line.includes('"database unavailable"'))
    expect(logged.length).toBeGreaterThanOrEqual(1)
    expect(logged.length).toBeLessThan(n / 2)
    expect(serve.output()).not.toContain('unexpected error')
    expect(await serve.stop('SIGTERM')).toBe(0)
  },
  90_000,
)
