import { Database } from 'bun:sqlite'
import { randomBytes } from 'node:crypto'
import { chmodSync, closeSync, existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { copyPrivately, makePrivateFolder, openPrivateFile } from '../../system/private-files'
import type { Migration } from '../sql/bundled-migrations'
import { SQLITE_MIGRATIONS } from './migrations'

/** How far a database file's schema is: the migrations drizzle recorded in it, against those this program has. */
export interface SchemaVersion {
  /** Migrations applied, counted in this program's list (0 for a fresh file). */
  applied: number
  /** The tag of the newest applied migration, when this program knows it. */
  latest?: string
  /** The file has a migration this program does not know: it was written by a newer intake. */
  newer: boolean
  /** Migrations this program would apply. */
  pending: Migration[]
}

export function schemaVersion(db: Database, known: readonly Migration[] = SQLITE_MIGRATIONS): SchemaVersion {
  const table = db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").all()
  // drizzle compares only the newest applied migration's time with each migration's (its folderMillis).
  const [last] = table.length ? db.query<{ at: number | null }, []>('SELECT max(created_at) AS at FROM __drizzle_migrations').all() : []
  const at = last?.at == null ? undefined : Number(last.at)
  const applied = at === undefined ? [] : known.filter((m) => m.folderMillis <= at)
  return {
    applied: applied.length,
    ...(applied.length ? { latest: applied[applied.length - 1]!.tag } : {}),
    newer: at !== undefined && !known.some((m) => m.folderMillis === at),
    pending: known.filter((m) => at === undefined || m.folderMillis > at),
  }
}

/**
 * A consistent copy of the open database into `target`, which must not exist: VACUUM INTO reads one
 * snapshot, so writers go on meanwhile. It is written under a temporary name (`unfinishedName`), checked,
 * and only then renamed to `target`: a copy killed or failed halfway never carries a backup's name. The
 * copy holds personal data: only the owner may read it.
 */
export function copyChecked(db: Database, target: string, onCopied: (partial: string) => void = () => {}): void {
  const partial = unfinishedName(target)
  removeCopy(partial) // this process's id on a killed copy's leftovers (a container restarted): nobody writes them now
  try {
    closeSync(openPrivateFile(partial))
    db.run('VACUUM INTO ?', [partial])
    onCopied(partial)
    withFile(partial, (copy) => checkIntegrity(copy, 'The copy'))
    renameSync(partial, target)
  } catch (error) {
    removeCopy(partial) // a full disk leaves no file that looks like a copy
    throw error
  }
}

function removeCopy(partial: string): void {
  for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(partial + suffix, { force: true })
}

/** Where a copy is written before it is complete: named by the process, so a later start knows whose it was. */
function unfinishedName(target: string): string {
  return `${target}.partial-${process.pid}`
}

/** A copy's file, or one SQLite keeps beside it while writing it. */
const UNFINISHED = /\.partial-(\d+)(?:-journal|-wal|-shm)?$/

/**
 * Removes what killed copies left beside the database (`intake.sqlite.pre-…bak.partial-<pid>` and its
 * `-journal`), unless the process that writes it still runs. This process has started no copy yet, so its
 * own id (a container's service often has the same id at every start) names a leftover too. Answers the
 * names removed.
 */
export function removeUnfinishedCopies(path: string): string[] {
  const folder = dirname(path)
  const mine = `${basename(path)}.`
  const removed: string[] = []
  for (const name of readdirSync(folder)) {
    const pid = UNFINISHED.exec(name)?.[1]
    if (!name.startsWith(mine) || pid === undefined || isAnotherRunningProcess(Number(pid))) continue
    rmSync(join(folder, name), { force: true })
    removed.push(name)
  }
  return removed
}

function isAnotherRunningProcess(pid: number): boolean {
  if (pid === process.pid) return false
  try {
    process.kill(pid, 0) // no signal sent: only asks whether it exists
    return true
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM' // it runs, as another user
  }
}

/** SQLite's own check of every page and index of a file; throws with what it found unless it is sound. */
export function checkIntegrity(db: Database, name: string): void {
  const rows = db.query<{ integrity_check: string }, []>('PRAGMA integrity_check').all()
  if (rows.length !== 1 || rows[0]!.integrity_check !== 'ok') {
    throw new BackupError(
      `${name} is damaged: ${rows
        .slice(0, 5)
        .map((r) => r.integrity_check)
        .join('; ')}`,
    )
  }
}

/** A refusal the operator can act on, said in one line. */
export class BackupError extends Error {}

/**
 * `intake.sqlite.<what>-20261122T191500.123Z-3f9a.bak`: a file beside the database, named by why and when
 * it was made. The random end keeps apart two made in the same millisecond (a start killed after its copy,
 * restarted at once).
 */
export function besideName(path: string, what: string, now: Date): string {
  return `${path}.${what}-${now.toISOString().replace(/[-:]/g, '')}-${randomBytes(2).toString('hex')}.bak`
}

/**
 * `intake backup`: copies the database at `source` into `target` while servers may be using it, checks the
 * copy, and only then gives it its name (a failed backup leaves no file that looks like one).
 */
export function backupDatabase(source: string, target: string, options: { replace: boolean; say: (line: string) => void }): SchemaVersion {
  if (!existsSync(source)) throw new BackupError(`There is no database at ${source}.`)
  if (existsSync(target) && !options.replace)
    throw new BackupError(`${target} exists already; choose another name, or pass --force to replace it.`)
  const db = new Database(source, { readonly: true })
  try {
    db.exec('PRAGMA busy_timeout = 5000')
    const version = schemaVersion(db)
    options.say(`Copying ${source} (${megabytes(source)}, schema ${describe(version)}) to ${target} ...`)
    copyChecked(db, target, (partial) => options.say(`Checking the copy (${megabytes(partial)}) ...`))
    return version
  } finally {
    db.close()
  }
}

/**
 * `intake restore`: puts the backup at `source` in place of the database at `target`, which no process may
 * have open. The backup must be sound and not newer than this program; the replaced database is kept
 * beside, renamed (answered), never deleted.
 */
export function restoreDatabase(
  source: string,
  target: string,
  options: { now: Date; say: (line: string) => void },
): { replaced?: string } {
  if (!existsSync(source)) throw new BackupError(`There is no backup at ${source}.`)
  // SQLite would take the journal for a write to undo, and write to the backup to undo it.
  if (existsSync(`${source}-journal`)) {
    throw new BackupError(
      `${source} is an unfinished copy (a write to it stopped halfway: ${source}-journal is beside it); choose a complete backup.`,
    )
  }
  options.say(`Checking ${source} (${megabytes(source)}) ...`)
  const version = withFile(source, (backup) => {
    checkIntegrity(backup, source)
    return schemaVersion(backup)
  })
  if (version.applied === 0 && !version.newer) throw new BackupError(`${source} is not an intake database (it has no applied migrations).`)
  if (version.newer)
    throw new BackupError(`${source} was written by a newer version of intake than this one; restore it with that version or a later one.`)
  options.say(`The backup is sound, schema ${describe(version)}.`)

  const incoming = unfinishedName(target)
  makePrivateFolder(dirname(target))
  copyPrivately(source, incoming)
  try {
    let replaced: string | undefined
    if (existsSync(target)) {
      ensureUnused(target)
      replaced = besideName(target, 'replaced', options.now)
      // The -wal and -shm files follow their database, so the kept copy opens as it was, and only its owner
      // may read it (a database an older version wrote may have been open to others).
      for (const suffix of ['', '-wal', '-shm']) {
        if (!existsSync(target + suffix)) continue
        renameSync(target + suffix, replaced + suffix)
        chmodSync(replaced + suffix, 0o600)
      }
    }
    renameSync(incoming, target)
    return replaced ? { replaced } : {}
  } catch (error) {
    rmSync(incoming, { force: true })
    throw error
  }
}

/**
 * Refuses when any process (serve, worker, another command) has the database open: each keeps a shared
 * lock on the file while connected, so an exclusive lock is granted only to a lone user. The kernel drops
 * the locks of a process that dies, so a crash leaves nothing stale behind.
 */
function ensureUnused(path: string): void {
  const db = new Database(path)
  try {
    db.exec('PRAGMA busy_timeout = 0')
    db.exec('PRAGMA locking_mode = EXCLUSIVE')
    db.exec('BEGIN EXCLUSIVE')
    db.exec('COMMIT')
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw new BackupError(`${path} is in use by a running intake (serve, worker or another command); stop it first.`)
    }
    throw error
  } finally {
    db.close()
  }
}

function withFile<T>(path: string, use: (db: Database) => T): T {
  let db: Database | undefined
  try {
    db = new Database(path, { readonly: true })
    return use(db)
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT')
      throw new BackupError(`${path} is damaged or not a SQLite database (${(error as Error).message}).`)
    // Anything else SQLite says of the file (it cannot be opened, it would need writing to be read): a refusal too.
    if (typeof code === 'string' && code.startsWith('SQLITE_'))
      throw new BackupError(`${path} cannot be read as a database (${(error as Error).message}).`)
    throw error
  } finally {
    db?.close()
  }
}

function describe(version: SchemaVersion): string {
  return version.latest ? `${version.applied} migrations, up to ${version.latest}` : 'empty'
}

function megabytes(path: string): string {
  return `${(statSync(path).size / 1_048_576).toFixed(1)} MB`
}
