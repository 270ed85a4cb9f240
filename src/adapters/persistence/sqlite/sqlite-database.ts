import { Database } from 'bun:sqlite'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import type { Repositories } from '../../../application/ports/repositories'
import type { MigrationOutcome, Persistence } from '../../../application/ports/persistence'
import type { UnitOfWork } from '../../../application/ports/unit-of-work'
import { applyMigrations, type Migration } from '../sql/bundled-migrations'
import { driverError } from '../sql/sql-dialect'
import { Mutex } from '../shared/mutex'
import { SQLITE_MIGRATIONS } from './migrations'
import * as schema from './schema'
import { besideName, copyDatabase, schemaVersion } from './sqlite-backup'
import { sqliteRepositories, type SqliteDb } from './sqlite-repositories'

/**
 * One SQLite file, two connections: a writer that only the unit of work uses, one transaction at a time,
 * and a reader for everything else. In WAL mode the reader sees committed data only, so no request can
 * observe half a transaction. An in-memory database has one connection for both.
 */
export class SqliteDatabase implements Persistence, UnitOfWork {
  readonly repositories: Repositories
  readonly unitOfWork: UnitOfWork = this
  private readonly writer: Database
  private readonly reader: Database
  private readonly writeDb: SqliteDb
  private readonly writeRepositories: Repositories
  private readonly mutex = new Mutex()

  constructor(readonly path: string) {
    const inMemory = path === ':memory:'
    if (!inMemory) mkdirSync(dirname(path), { recursive: true })
    this.writer = new Database(path, { create: true, strict: true })
    configure(this.writer)
    this.writer.exec('PRAGMA journal_mode = WAL')
    this.reader = inMemory ? this.writer : new Database(path, { readonly: true, strict: true })
    if (!inMemory) configure(this.reader)
    this.writeDb = drizzle({ client: this.writer, schema })
    this.writeRepositories = sqliteRepositories(this.writeDb)
    this.repositories = sqliteRepositories(drizzle({ client: this.reader, schema }))
  }

  /**
   * Applies the migrations this file has not seen yet. A file that has data is first copied beside itself
   * (`intake.sqlite.pre-0006_x-20261122T191500Z.bak`), so an upgrade that goes wrong can be undone.
   */
  async migrate(migrations: Migration[] = SQLITE_MIGRATIONS, now = new Date()): Promise<MigrationOutcome> {
    const { applied, pending } = schemaVersion(this.writer, migrations)
    let backup: string | undefined
    if (applied > 0 && pending.length > 0 && this.path !== ':memory:') {
      backup = besideName(this.path, `pre-${pending[0]!.tag}`, now)
      copyDatabase(this.writer, backup)
    }
    applyMigrations<void>(this.writeDb, migrations) // synchronous: done when this returns
    return backup ? { backup } : {}
  }

  /**
   * bun:sqlite's own transaction() is synchronous and would commit at the first await. Here the
   * transaction spans the whole promise: BEGIN IMMEDIATE, then COMMIT when `work` resolves, ROLLBACK
   * when it rejects. The mutex keeps other requests' writes out of it meanwhile.
   */
  run<T>(work: (repositories: Repositories) => Promise<T>): Promise<T> {
    return this.mutex.lock(async () => {
      this.writer.exec('BEGIN IMMEDIATE')
      try {
        const result = await work(this.writeRepositories)
        this.writer.exec('COMMIT')
        return result
      } catch (error) {
        this.writer.exec('ROLLBACK')
        throw error
      }
    })
  }

  /** Whether the database answers a trivial query (readiness). */
  /** A busy or locked file after the busy timeout: another process holds it, try again. */
  isOutage(error: unknown) {
    const code = driverError(error)?.code
    return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED'
  }

  async ping() {
    return this.reader.query('SELECT 1 AS ok').all().length === 1
  }

  async close() {
    if (this.reader !== this.writer) this.reader.close()
    this.writer.close()
  }
}

function configure(db: Database): void {
  db.exec('PRAGMA busy_timeout = 5000')
  db.exec('PRAGMA foreign_keys = ON')
  db.exec('PRAGMA synchronous = NORMAL')
}
