import { chmodSync, closeSync, existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { backupDatabase, restoreDatabase } from '../adapters/persistence/sqlite/sqlite-backup'
import { openPrivateFile } from '../adapters/system/private-files'
import type { Config } from './config'

const KEY_REMINDER =
  'Keep DATA_ENCRYPTION_KEY with it (the data_encryption_key.secret file beside the database, unless it is set in the environment): the email settings in the backup open only with that key.'

/** `intake backup --to FILE [--force]`: a copy of the live database, checked before it gets its name. */
export async function backup(database: Config['database'], args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { to: { type: 'string' }, force: { type: 'boolean', default: false } } })
  if (!values.to) return usage('backup --to FILE [--force]')
  switch (database.kind) {
    case 'memory':
      console.error('Nothing to back up: DATABASE_URL=memory: keeps everything in the process.')
      return 1
    case 'postgres':
      return pgDump(database.url, values.to, values.force)
    case 'sqlite': {
      if (database.path === ':memory:') {
        console.error('Nothing to back up: DATABASE_URL=sqlite::memory: keeps everything in the process.')
        return 1
      }
      const version = backupDatabase(database.path, values.to, { replace: values.force, say: (line) => console.log(line) })
      console.log(`Backup written to ${values.to} (${version.applied} migrations applied). ${KEY_REMINDER}`)
      return 0
    }
  }
}

/** `intake restore --from FILE`: the backup in place of the database, which no running intake may hold. */
export async function restore(database: Config['database'], args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { from: { type: 'string' } } })
  if (!values.from) return usage('restore --from FILE')
  if (database.kind === 'postgres') {
    console.error(
      'On PostgreSQL, restore a pg_dump backup with pg_restore (pg_restore --clean --if-exists --dbname "$DATABASE_URL" FILE) while no intake runs.',
    )
    return 1
  }
  if (database.kind === 'memory' || database.path === ':memory:') {
    console.error('Nothing to restore into: the configured database lives in the process.')
    return 1
  }
  const { replaced } = restoreDatabase(values.from, database.path, { now: new Date(), say: (line) => console.log(line) })
  console.log(`Restored ${database.path} from ${values.from}.`)
  if (replaced) console.log(`The database it replaced is kept at ${replaced}.`)
  if (!existsSync(join(dirname(database.path), 'data_encryption_key.secret'))) {
    console.log('No data_encryption_key.secret beside the database: set DATA_ENCRYPTION_KEY to the key in use when the backup was made.')
  }
  console.log('Start intake again: it applies any newer migrations, copying the database beside itself first.')
  return 0
}

/**
 * pg_dump when it is on the PATH, in its custom format (for pg_restore). The connection goes through the
 * PG* environment variables, so the password never shows in the process list.
 */
async function pgDump(url: string, to: string, force: boolean): Promise<number> {
  const pgDump = Bun.which('pg_dump')
  if (!pgDump) {
    console.error(`On PostgreSQL, back up with pg_dump (not found on the PATH): pg_dump --format=custom --file=${to} "$DATABASE_URL"`)
    return 1
  }
  if (existsSync(to) && !force) {
    console.error(`${to} exists already; choose another name, or pass --force to replace it.`)
    return 1
  }
  const u = new URL(url)
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PGHOST: u.hostname,
    PGPORT: u.port || '5432',
    PGDATABASE: decodeURIComponent(u.pathname.slice(1)),
  }
  if (u.username) env.PGUSER = decodeURIComponent(u.username)
  if (u.password) env.PGPASSWORD = decodeURIComponent(u.password)
  const sslmode = u.searchParams.get('sslmode')
  if (sslmode) env.PGSSLMODE = sslmode
  // pg_dump writes into the file as it finds it, with its mode: made 0600 first, the dump is never open to others.
  if (existsSync(to)) chmodSync(to, 0o600)
  else closeSync(openPrivateFile(to))
  console.log(`Running ${pgDump} --format=custom --file=${to} ...`)
  const proc = Bun.spawn([pgDump, '--format=custom', `--file=${to}`], { env, stdout: 'inherit', stderr: 'inherit' })
  const code = await proc.exited
  console.log(code === 0 ? `Backup written to ${to} (restore it with pg_restore).` : `pg_dump failed (exit code ${code}).`)
  return code === 0 ? 0 : 1
}

function usage(line: string): number {
  console.error(`Usage: intake ${line}`)
  return 1
}
