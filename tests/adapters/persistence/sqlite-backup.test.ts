import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { readMigrationFiles } from 'drizzle-orm/migrator'
import { POSTGRES_MIGRATIONS } from '../../../src/adapters/persistence/postgres/migrations'
import { SQLITE_MIGRATIONS } from '../../../src/adapters/persistence/sqlite/migrations'
import { backupDatabase, BackupError, restoreDatabase, schemaVersion } from '../../../src/adapters/persistence/sqlite/sqlite-backup'
import { SqliteDatabase } from '../../../src/adapters/persistence/sqlite/sqlite-database'
import { anOrganization } from '../../support/builders'

const dirs: string[] = []
const open: SqliteDatabase[] = []
afterAll(async () => {
  await Promise.all(open.map((db) => db.close()))
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'intake-backup-'))
  dirs.push(dir)
  return dir
}

/** A migrated database holding one organization, left open as a running server would. */
async function liveDatabase(dir = folder()) {
  const path = join(dir, 'intake.sqlite')
  const db = new SqliteDatabase(path)
  open.push(db)
  await db.migrate()
  const organization = anOrganization()
  await db.unitOfWork.run((r) => r.organizations.insert(organization))
  return { dir, path, db, organization }
}

function organizationsIn(path: string): string[] {
  const db = new Database(path, { readonly: true })
  try {
    return db
      .query<{ slug: string }, []>('SELECT slug FROM organizations')
      .all()
      .map((r) => r.slug)
  } finally {
    db.close()
  }
}

const quiet = () => {}

describe('migrations bundled into the program', () => {
  test('are exactly what drizzle reads from the folders drizzle-kit writes (npm run db:generate keeps them in step)', () => {
    const root = join(import.meta.dir, '../../../src/adapters/persistence')
    const strip = (migrations: object[]) => migrations.map((m) => ({ ...m, tag: undefined }))
    expect(strip(SQLITE_MIGRATIONS)).toEqual(strip(readMigrationFiles({ migrationsFolder: join(root, 'sqlite/migrations') })))
    expect(strip(POSTGRES_MIGRATIONS)).toEqual(strip(readMigrationFiles({ migrationsFolder: join(root, 'postgres/migrations') })))
  })
})

describe('upgrade by restart', () => {
  test('migrating a file that has data copies it beside itself first, at its old schema, and says where', async () => {
    const dir = folder()
    const path = join(dir, 'intake.sqlite')
    const db = new SqliteDatabase(path)
    open.push(db)
    expect(await db.migrate()).toEqual({}) // a fresh file: nothing to keep
    await db.unitOfWork.run((r) => r.organizations.insert(anOrganization({ slug: 'before-upgrade' })))
    const last = SQLITE_MIGRATIONS.at(-1)!
    const next = { tag: '9999_next', sql: ['CREATE TABLE next_thing (x)'], bps: true, folderMillis: last.folderMillis + 1, hash: 'next' }

    const outcome = await db.migrate([...SQLITE_MIGRATIONS, next], new Date('2026-11-22T19:15:00.123Z'))

    expect(outcome.backup).toMatch(/\/intake\.sqlite\.pre-9999_next-20261122T191500\.123Z-[0-9a-f]{4}\.bak$/)
    expect(statSync(outcome.backup!).mode & 0o777).toBe(0o600)
    expect(organizationsIn(outcome.backup!)).toEqual(['before-upgrade'])
    const kept = new Database(outcome.backup!, { readonly: true })
    expect(schemaVersion(kept, [...SQLITE_MIGRATIONS, next])).toMatchObject({ latest: last.tag, pending: [next] })
    kept.close()
    expect(await db.migrate([...SQLITE_MIGRATIONS, next])).toEqual({}) // up to date: no copy
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([])
  })

  test('two starts in the same millisecond copy the database to two names; neither replaces the other', async () => {
    const { dir, path, db } = await liveDatabase()
    const last = SQLITE_MIGRATIONS.at(-1)!
    const next = (sql: string) => ({ tag: '9999_next', sql: [sql], bps: true, folderMillis: last.folderMillis + 1, hash: 'next' })
    const now = new Date('2026-11-22T19:15:00.123Z')

    // The first start copies, then fails (as one killed after its copy would not finish either).
    await expect(db.migrate([...SQLITE_MIGRATIONS, next('SELECT no_such_function()')], now)).rejects.toThrow()
    const second = await db.migrate([...SQLITE_MIGRATIONS, next('CREATE TABLE next_thing (x)')], now)

    const copies = readdirSync(dir).filter((f) => f.startsWith('intake.sqlite.pre-9999_next-20261122T191500.123Z-'))
    expect(copies).toHaveLength(2)
    expect(copies).toContain(basename(second.backup!))
    for (const copy of copies) expect(organizationsIn(join(dir, copy))).toHaveLength(1)
    expect(path).toBe(join(dir, 'intake.sqlite'))
  })

  test('a start removes what a killed copy left beside the database, and only that', async () => {
    const { dir, path, db, organization } = await liveDatabase()
    const dead = Bun.spawnSync(['true']).pid // a process that has ended
    const killed = `intake.sqlite.pre-0007_x-20261122T191500.123Z-3f9a.bak.partial-${dead}`
    const ours = `intake.sqlite.pre-0007_x-20261122T191500.456Z-0b1c.bak.partial-${process.pid}` // a container's restart has the same id
    const running = `intake.sqlite.pre-0007_x-20261122T191500.789Z-77aa.bak.partial-${process.ppid}` // another start, still copying
    const kept = ['intake.sqlite.pre-0006_x-20261101T000000.000Z-1234.bak', 'other.sqlite.bak.partial-1', running, `${running}-journal`]
    for (const name of [killed, `${killed}-journal`, ours, ...kept]) writeFileSync(join(dir, name), 'leftover')

    const outcome = await db.migrate()

    expect(outcome.leftoversRemoved?.sort()).toEqual([killed, `${killed}-journal`, ours].sort())
    for (const name of kept) expect(existsSync(join(dir, name))).toBe(true)
    expect(organizationsIn(path)).toEqual([organization.slug])
  })

  test('a new database and its folder are private to the service user', async () => {
    const path = join(folder(), 'data', 'intake.sqlite')
    const db = new SqliteDatabase(path)
    open.push(db)
    await db.migrate()
    await db.unitOfWork.run((r) => r.organizations.insert(anOrganization()))

    expect(statSync(join(path, '..')).mode & 0o777).toBe(0o700)
    for (const file of [path, `${path}-wal`]) expect(statSync(file).mode & 0o777).toBe(0o600)
  })
})

describe('intake backup', () => {
  test('copies a database in use into a sound file only its owner can read', async () => {
    const { dir, path, organization } = await liveDatabase()
    const target = join(dir, 'copy.sqlite')
    const lines: string[] = []

    const version = backupDatabase(path, target, { replace: false, say: (line) => lines.push(line) })

    expect(version.applied).toBe(SQLITE_MIGRATIONS.length)
    expect(organizationsIn(target)).toEqual([organization.slug])
    expect(statSync(target).mode & 0o777).toBe(0o600)
    expect(lines.join('\n')).toContain('Checking the copy')
  })

  test('refuses to replace an existing file unless asked, and leaves nothing behind when it refuses', async () => {
    const { dir, path, organization } = await liveDatabase()
    const target = join(dir, 'copy.sqlite')
    writeFileSync(target, 'something precious')

    expect(() => backupDatabase(path, target, { replace: false, say: quiet })).toThrow(/exists already.*--force/)
    expect(await Bun.file(target).text()).toBe('something precious')

    backupDatabase(path, target, { replace: true, say: quiet })
    expect(organizationsIn(target)).toEqual([organization.slug])
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([])
  })

  test('says so when there is no database to copy', () => {
    const dir = folder()
    expect(() => backupDatabase(join(dir, 'none.sqlite'), join(dir, 'b.sqlite'), { replace: false, say: quiet })).toThrow(BackupError)
  })
})

describe('intake restore', () => {
  async function backupOf(organizationSlug: string) {
    const { dir, path, db } = await liveDatabase()
    await db.unitOfWork.run((r) => r.organizations.insert(anOrganization({ slug: organizationSlug })))
    const backup = join(dir, 'backup.sqlite')
    backupDatabase(path, backup, { replace: false, say: quiet })
    return backup
  }

  test('refuses while a process has the database open', async () => {
    const backup = await backupOf('from-backup')
    const { path, organization } = await liveDatabase()

    expect(() => restoreDatabase(backup, path, { now: new Date(), say: quiet })).toThrow(/in use by a running intake/)
    expect(organizationsIn(path)).toEqual([organization.slug])
  })

  test('puts the backup in place and keeps the replaced database beside it', async () => {
    const [current, backup] = [await backupOf('current'), await backupOf('from-backup')]
    const dir = folder()
    const path = join(dir, 'intake.sqlite')
    restoreDatabase(current, path, { now: new Date(), say: quiet })

    const { replaced } = restoreDatabase(backup, path, { now: new Date('2026-11-22T20:00:00Z'), say: quiet })

    expect(replaced).toMatch(/^(.*)\/intake\.sqlite\.replaced-20261122T200000\.000Z-[0-9a-f]{4}\.bak$/)
    expect(join(replaced!, '..')).toBe(dir)
    expect(organizationsIn(replaced!)).toContain('current')
    expect(organizationsIn(path)).toContain('from-backup')
    const restored = new SqliteDatabase(path)
    open.push(restored)
    expect(await restored.migrate()).toEqual({})
  })

  test('restores into a folder that does not exist yet, readable by its owner only', async () => {
    const backup = await backupOf('from-backup')
    chmodSync(backup, 0o644)
    const path = join(folder(), 'data', 'intake.sqlite')
    expect(restoreDatabase(backup, path, { now: new Date(), say: quiet })).toEqual({})
    expect(organizationsIn(path)).toContain('from-backup')
    expect(statSync(path).mode & 0o777).toBe(0o600)
  })

  test('refuses a damaged backup, a file that is no database, and one that is not intake', async () => {
    const dir = folder()
    const target = join(dir, 'intake.sqlite')
    const damaged = await backupOf('damaged')
    const file = Bun.file(damaged)
    const bytes = new Uint8Array(await file.arrayBuffer())
    bytes.fill(0x41, bytes.length - 8192) // the last pages: index and table data
    writeFileSync(damaged, bytes)
    const notADatabase = join(dir, 'notes.txt')
    writeFileSync(notADatabase, 'x'.repeat(4096))
    const foreign = join(dir, 'foreign.sqlite')
    const other = new Database(foreign)
    other.exec('CREATE TABLE t (x)')
    other.close()

    for (const [backup, reason] of [
      [damaged, /damaged/],
      [notADatabase, /not a SQLite database/],
      [foreign, /not an intake database/],
    ] as const) {
      expect(() => restoreDatabase(backup, target, { now: new Date(), say: quiet })).toThrow(reason)
    }
    expect(existsSync(target)).toBe(false)
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([])
  })

  test('refuses an unfinished copy, whose journal it would have to write to, and leaves it as it was', async () => {
    const backup = await backupOf('unfinished')
    const journal = `${backup}-journal`
    writeFileSync(journal, new Uint8Array(4096).fill(0xd9))
    chmodSync(backup, 0o400)
    const target = join(folder(), 'intake.sqlite')

    expect(() => restoreDatabase(backup, target, { now: new Date(), say: quiet })).toThrow(/is an unfinished copy/)
    expect(existsSync(target)).toBe(false)
    expect(existsSync(journal)).toBe(true)
  })

  test('restores a sound backup that is read-only', async () => {
    const backup = await backupOf('read-only')
    chmodSync(backup, 0o400)
    const target = join(folder(), 'intake.sqlite')
    restoreDatabase(backup, target, { now: new Date(), say: quiet })
    expect(organizationsIn(target)).toContain('read-only')
  })

  test('refuses a backup written by a newer intake', async () => {
    const backup = await backupOf('newer')
    const db = new Database(backup)
    db.run('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)', ['future', SQLITE_MIGRATIONS.at(-1)!.folderMillis + 1])
    db.close()
    expect(() => restoreDatabase(backup, join(folder(), 'intake.sqlite'), { now: new Date(), say: quiet })).toThrow(
      /newer version of intake/,
    )
  })
})
