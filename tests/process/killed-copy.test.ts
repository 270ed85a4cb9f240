import { Database } from 'bun:sqlite'
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SQLITE_MIGRATIONS } from '../../src/adapters/persistence/sqlite/migrations'
import { schemaVersion } from '../../src/adapters/persistence/sqlite/sqlite-backup'
import { FROM_SOURCE, killAllServers, runCli, ServeProcess, waitFor } from './cli-process'

// docs/faults.md "A start killed while copying the database": the real `intake serve`, upgrading a
// large SQLite file, is killed with SIGKILL while it copies the file before migrating. What remains trips
// neither `intake restore` nor the next start.

const dir = mkdtempSync(join(tmpdir(), 'intake-killed-copy-'))
afterAll(async () => {
  await killAllServers()
  rmSync(dir, { recursive: true, force: true })
})

const path = join(dir, 'intake.sqlite')
const env = { DATABASE_URL: `sqlite:${path}`, LOG_LEVEL: 'info' }
const files = () => readdirSync(dir)
const isPartial = (name: string) => /\.bak\.partial-\d+$/.test(name)

/**
 * A database one migration behind this program, holding a mark and 96 MiB besides: its copy takes a while.
 * Made by a process of its own, which ends: a connection closed in this one may keep its lock on the file
 * until its prepared statements are collected, and `restore` would find the file in use. The data is raw:
 * today's repositories may not write to an older schema.
 */
function largeDatabaseOneMigrationBehind(mark: string): void {
  const script = `
    import { Database } from 'bun:sqlite'
    import { SqliteDatabase } from '${join(FROM_SOURCE.cwd, 'src/adapters/persistence/sqlite/sqlite-database')}'
    import { SQLITE_MIGRATIONS } from '${join(FROM_SOURCE.cwd, 'src/adapters/persistence/sqlite/migrations')}'
    const db = new SqliteDatabase(${JSON.stringify(path)})
    await db.migrate(SQLITE_MIGRATIONS.slice(0, -1))
    await db.close()
    const raw = new Database(${JSON.stringify(path)})
    raw.exec('CREATE TABLE mark (v TEXT)')
    raw.run('INSERT INTO mark VALUES (?)', [${JSON.stringify(mark)}])
    raw.exec('CREATE TABLE ballast (x BLOB)')
    raw.exec('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1536) INSERT INTO ballast SELECT randomblob(65536) FROM n')
    raw.close()
  `
  const made = Bun.spawnSync([process.execPath, '-e', script], { cwd: dir })
  if (made.exitCode !== 0) throw new Error(made.stderr.toString())
}

function schemaOf(file: string) {
  const db = new Database(file, { readonly: true })
  try {
    return {
      ...schemaVersion(db),
      marks: db
        .query<{ v: string }, []>('SELECT v FROM mark')
        .all()
        .map((r) => r.v),
    }
  } finally {
    db.close()
  }
}

test('a start killed while copying the database leaves nothing that a restore or the next start trips on', async () => {
  largeDatabaseOneMigrationBehind('before-upgrade')
  const previous = SQLITE_MIGRATIONS.at(-2)!.tag

  // The start, killed while SQLite writes the copy (its -journal is there until the copy is complete).
  const start = Bun.spawn([...FROM_SOURCE.command, 'serve'], {
    cwd: FROM_SOURCE.cwd,
    env: { PATH: process.env.PATH ?? '', HOME: dir, HOST: '127.0.0.1', PORT: '0', ...env },
    stdout: 'ignore',
    stderr: 'ignore',
  })
  const copying = await waitFor(
    () => files().some((name) => /\.bak\.partial-\d+-journal$/.test(name)) || start.exitCode !== null,
    30_000,
    1,
  )
  start.kill('SIGKILL')
  await start.exited
  expect(copying && start.signalCode === 'SIGKILL').toBe(true)
  const [partial, ...others] = files().filter(isPartial)
  expect(others).toEqual([])
  expect(files().filter((name) => name.endsWith('.bak'))).toEqual([]) // nothing carries a backup's name

  // Pointed at what the kill left, restore refuses in one line and changes nothing.
  const refused = await runCli(['restore', '--from', join(dir, partial!)], env)
  expect(refused.code).toBe(1)
  expect(refused.output).toContain('is an unfinished copy')
  expect(refused.output).not.toMatch(/^\s+at /m) // no stack
  expect(schemaOf(path)).toMatchObject({ latest: previous, marks: ['before-upgrade'] })

  // The next start removes the leftovers, copies anew, migrates and serves.
  const serve = await ServeProcess.start(env, 60_000)
  expect(serve.output()).toContain(partial!)
  expect(files().filter((name) => name.includes('.partial-'))).toEqual([])
  const [copy, ...more] = files().filter((name) => name.endsWith('.bak'))
  expect(more).toEqual([])
  expect(serve.output()).toContain(copy!)
  expect(await serve.stop('SIGTERM')).toBe(0)
  expect(schemaOf(path)).toMatchObject({ latest: SQLITE_MIGRATIONS.at(-1)!.tag, marks: ['before-upgrade'] })

  // The copy it made restores: the database as it was before the upgrade.
  const restored = await runCli(['restore', '--from', join(dir, copy!)], env, 60_000)
  expect(restored.output).toContain('Restored')
  expect(restored.code).toBe(0)
  expect(schemaOf(path)).toMatchObject({ latest: previous, marks: ['before-upgrade'] })
}, 180_000)
