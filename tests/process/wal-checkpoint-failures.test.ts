import { afterAll, expect, test } from 'bun:test'
import { statSync } from 'node:fs'
import { FROM_SOURCE, killAllServers, ServeProcess, waitFor, type Program } from './cli-process'
import { adminOf, serveDatabase, type ServeDatabase } from './workload'

// docs/faults.md "WAL checkpoints that fail": when the database file cannot grow (a full disk), every
// checkpoint fails; the service says so once, not once a tick, and once more when they succeed again. The
// real `intake serve` is given a file-size limit (prlimit) that its database file has reached, then none.

const prlimit = Bun.which('prlimit')
/** serve with SIGXFSZ ignored, so that writing past the limit is an error (EFBIG) rather than the end of the process. */
const IGNORING_SIGXFSZ: Program = { command: ['sh', '-c', `trap '' XFSZ; exec "$0" "$@"`, ...FROM_SOURCE.command], cwd: FROM_SOURCE.cwd }

let database: ServeDatabase | undefined
afterAll(async () => {
  await killAllServers()
  await database?.drop()
})

interface LogLine {
  message: string
  failed?: number
}

test.skipIf(!prlimit || process.platform !== 'linux')(
  'failing WAL checkpoints are logged once per burst, and their end once',
  async () => {
    database = await serveDatabase('sqlite')
    const serve = await ServeProcess.start({ ...database.env, LOG_LEVEL: 'info' }, 20_000, IGNORING_SIGXFSZ)
    const { api, partnerId } = await adminOf(serve)
    const lines = () =>
      serve
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as LogLine)
    const failures = () => lines().filter((line) => line.message.startsWith('WAL checkpoint failed'))
    const recoveries = () => lines().filter((line) => line.message === 'WAL checkpoints succeed again')
    const setLimit = (soft: string) => expect(Bun.spawnSync([prlimit!, `--pid=${serve.pid}`, `--fsize=${soft}:`]).exitCode).toBe(0)
    const writeNeed = (n: number) =>
      api.call('POST', '/api/needs', { partnerId, customFields: { description: `need ${n} ${'x'.repeat(2000)}` } })

    setLimit(String(statSync(database.sqlitePath!).size))
    let n = 0
    const writeUntilAFailure = async () => {
      await writeNeed(++n)
      return failures().length > 0
    }
    expect(await waitFor(writeUntilAFailure, 20_000, 0)).toBe(true)
    await Bun.sleep(500) // the checkpointer keeps failing, tick after tick (one every 20 ms)
    setLimit('unlimited')

    expect(await waitFor(() => recoveries().length > 0, 10_000)).toBe(true)
    expect(failures()).toHaveLength(1)
    expect(recoveries()).toHaveLength(1)
    expect(recoveries()[0]!.failed).toBeGreaterThan(1)
    expect((await writeNeed(++n)).status).toBe(201) // writes work again by themselves
    expect(await serve.stop('SIGTERM')).toBe(0)
  },
  60_000,
)
