import { afterAll, describe, expect, test } from 'bun:test'
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SQLITE_MIGRATIONS } from '../../src/adapters/persistence/sqlite/migrations'
import { SqliteDatabase } from '../../src/adapters/persistence/sqlite/sqlite-database'
import { createTestDatabase, postgresAvailable } from '../support/postgres'
import { FROM_SOURCE, killAllServers, runCli, ServeProcess, type Program } from './cli-process'

// docs/privacy.md "Files on disk": whatever the umask, every file intake writes is 0600 in a 0700 folder,
// and a start names the files it finds open to others. Real processes, each under the umask tested.

const folders: string[] = []
afterAll(async () => {
  await killAllServers()
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

const underUmask = (umask: string): Program => ({
  command: ['sh', '-c', `umask ${umask} && exec "$@"`, 'sh', ...FROM_SOURCE.command],
  cwd: FROM_SOURCE.cwd,
})

function aFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'intake-modes-'))
  folders.push(folder)
  return folder
}

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8)

/** The folder's mode and each of its files', by name. */
function modesIn(folder: string): Record<string, string> {
  return Object.fromEntries([['.', modeOf(folder)], ...readdirSync(folder).map((name) => [name, modeOf(join(folder, name))])])
}

const sqliteEnv = (path: string) => ({ DATABASE_URL: `sqlite:${path}`, LOG_LEVEL: 'info', SERVE_RUNS_WORKER: 'false' })

async function cli(args: string[], env: Record<string, string>, program: Program): Promise<string> {
  const { code, output } = await runCli(args, env, 30_000, program)
  expect({ args, code, output }).toMatchObject({ code: 0 })
  return output
}

describe('the modes of the files intake writes', () => {
  for (const umask of ['022', '000']) {
    test(`umask ${umask}: the database, its -wal and -shm, the secrets, a migration's copy, a backup and a replaced database are 0600 in a 0700 folder`, async () => {
      const program = underUmask(umask)
      const data = join(aFolder(), 'data', 'intake')
      const path = join(data, 'intake.sqlite')

      // A first start makes the folders, the database and the secrets; while it runs, the log files too.
      const server = await ServeProcess.start(sqliteEnv(path), 30_000, program)
      const running = modesIn(data)
      expect(await server.stop('SIGTERM')).toBe(0)
      expect(running).toMatchObject({
        '.': '700',
        'intake.sqlite': '600',
        'intake.sqlite-wal': '600',
        'intake.sqlite-shm': '600',
        'jwt_secret.secret': '600',
        'data_encryption_key.secret': '600',
      })
      expect(modeOf(join(data, '..'))).toBe('700')

      // A backup, and a restore of it, which keeps the database it replaces beside.
      await cli(['backup', '--to', join(data, 'backup.sqlite')], sqliteEnv(path), program)
      await cli(['restore', '--from', join(data, 'backup.sqlite')], sqliteEnv(path), program)
      // An upgrade: a database an older version left is copied before it is migrated.
      const older = join(data, 'older.sqlite')
      const db = new SqliteDatabase(older)
      await db.migrate(SQLITE_MIGRATIONS.slice(0, -1))
      await db.close()
      await cli(['migrate'], sqliteEnv(older), program)

      const names = readdirSync(data)
      expect(names.filter((name) => /^intake\.sqlite\.replaced-.*\.bak$/.test(name))).toHaveLength(1)
      expect(names.filter((name) => /^older\.sqlite\.pre-.*\.bak$/.test(name))).toHaveLength(1)
      const modes = modesIn(data)
      expect(Object.entries(modes).filter(([name, mode]) => mode !== (name === '.' ? '700' : '600'))).toEqual([])
    }, 90_000)
  }

  test('a start names the files of the database’s folder that others may read, and the folder when they may enter it', async () => {
    const data = join(aFolder(), 'data')
    const path = join(data, 'intake.sqlite')
    await cli(['migrate'], sqliteEnv(path), FROM_SOURCE)
    expect(await cli(['migrate'], sqliteEnv(path), FROM_SOURCE)).not.toContain('files readable by other users')

    chmodSync(path, 0o644)
    chmodSync(data, 0o755)
    const output = await cli(['migrate'], sqliteEnv(path), FROM_SOURCE)

    const warning = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; message?: string; files?: string[] })
      .find((entry) => (entry.msg ?? entry.message) === 'files readable by other users')
    // SQLite gave the -wal and -shm files it made at this start the database's mode.
    expect(warning?.files?.sort()).toEqual([data, path, `${path}-shm`, `${path}-wal`].sort())
  }, 60_000)

  if (postgresAvailable() && Bun.which('pg_dump'))
    test('umask 000: the PostgreSQL dump `intake backup` writes is 0600', async () => {
      const database = await createTestDatabase()
      try {
        const env = { DATABASE_URL: database.url, JWT_SECRET: 'x'.repeat(64), DATA_ENCRYPTION_KEY: 'a'.repeat(64) }
        await cli(['migrate'], env, FROM_SOURCE)
        const dump = join(aFolder(), 'intake.pgdump')
        await cli(['backup', '--to', dump], env, underUmask('000'))
        expect(modeOf(dump)).toBe('600')
        expect(statSync(dump).size).toBeGreaterThan(0)
      } finally {
        await database.drop()
      }
    }, 60_000)
})
