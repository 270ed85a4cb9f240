import { Database, type Statement } from 'bun:sqlite'
import { PollingLiveEventFeed } from '../shared/polling-live-event-feed'
import { statSync } from 'node:fs'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import { SILENT_LOGGER, type Logger } from '../../../application/ports/logger'
import type { Repositories } from '../../../application/ports/repositories'
import type { MigrationOutcome, Persistence } from '../../../application/ports/persistence'
import type { UnitOfWork } from '../../../application/ports/unit-of-work'
import { applyMigrations, type Migration } from '../sql/bundled-migrations'
import { ensurePrivateFile } from '../../system/private-files'
import { outageOf } from '../shared/database-errors'
import { WriteOutage } from '../shared/write-outage'
import { SQLITE_MIGRATIONS } from './migrations'
import * as schema from './schema'
import { besideName, copyChecked, removeUnfinishedCopies, schemaVersion } from './sqlite-backup'
import { sqliteRepositories, type SqliteDb } from './sqlite-repositories'
import { SAFETY_NET_FRAMES, startWalCheckpointer, WAL_BOUND_BYTES, type WalCheckpointer } from './wal-checkpointer'

/** The most units one transaction takes: bounds how long the last of a group waits for the commit. */
const MAX_GROUP = 64

interface QueuedUnit {
  work: (repositories: Repositories) => Promise<unknown>
  resolve(value: unknown): void
  reject(error: unknown): void
}

export interface SqliteOptions {
  /** How often the log is checkpointed, off the event loop (wal-checkpointer.ts). */
  checkpointIntervalMs?: number
  /** Where the checkpointer says what went wrong (once per burst) and what a long read does to the log. */
  logger?: Logger
}

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
  private readonly queue: QueuedUnit[] = []
  private draining = false
  private readonly checkpointer?: WalCheckpointer
  private readonly writeOutage = new WriteOutage()
  private readonly totalChangesQuery: Statement<{ n: number }, []>

  constructor(
    readonly path: string,
    options: SqliteOptions = {},
  ) {
    const inMemory = path === ':memory:'
    // The folder (0700) and the file (0600) only the service's user may read, when this creates them: they
    // hold personal data. SQLite gives the -wal and -shm files its database file's mode.
    if (!inMemory) ensurePrivateFile(path)
    this.writer = new Database(path, { create: true, strict: true })
    configure(this.writer)
    this.writer.exec('PRAGMA journal_mode = WAL')
    if (!inMemory) {
      // The checkpointer copies the log; these two only catch what it cannot: a dead worker, a log file
      // grown during a long read and started over by a write before the worker cut it back.
      this.writer.exec(`PRAGMA wal_autocheckpoint = ${SAFETY_NET_FRAMES}`)
      this.writer.exec(`PRAGMA journal_size_limit = ${WAL_BOUND_BYTES}`)
      this.checkpointer = startWalCheckpointer(path, options.checkpointIntervalMs ?? 20, options.logger ?? SILENT_LOGGER)
    }
    this.reader = inMemory ? this.writer : new Database(path, { readonly: true, strict: true })
    if (!inMemory) configure(this.reader)
    this.totalChangesQuery = this.writer.query<{ n: number }, []>('SELECT total_changes() AS n')
    this.writeDb = drizzle({ client: this.writer, schema })
    this.writeRepositories = sqliteRepositories(this.writeDb)
    this.repositories = sqliteRepositories(drizzle({ client: this.reader, schema }))
  }

  /**
   * Applies the migrations this file has not seen yet. A file that has data is first copied beside itself
   * (`intake.sqlite.pre-0006_x-20261122T191500.123Z-3f9a.bak`), so an upgrade that goes wrong can be undone;
   * what a start killed during its copy left is removed first.
   */
  async migrate(migrations: Migration[] = SQLITE_MIGRATIONS, now = new Date()): Promise<MigrationOutcome> {
    const onFile = this.path !== ':memory:'
    const leftovers = onFile ? removeUnfinishedCopies(this.path) : []
    const { applied, pending } = schemaVersion(this.writer, migrations)
    let backup: string | undefined
    if (applied > 0 && pending.length > 0 && onFile) {
      backup = besideName(this.path, `pre-${pending[0]!.tag}`, now)
      copyChecked(this.writer, backup)
    }
    applyMigrations<void>(this.writeDb, migrations) // synchronous: done when this returns
    return { ...(backup ? { backup } : {}), ...(leftovers.length ? { leftoversRemoved: leftovers } : {}) }
  }

  /** The write-ahead log's size in bytes, for the metrics (0 when there is none). */
  walBytes(): number {
    return this.path === ':memory:' ? 0 : (statSync(`${this.path}-wal`, { throwIfNoEntry: false })?.size ?? 0)
  }

  /**
   * bun:sqlite's own transaction() is synchronous and would commit at the first await. Here a unit's
   * transaction spans its whole promise, and units take turns on the one writer, in arrival order.
   *
   * Group commit: the units that queue up while one runs share its transaction, each inside a savepoint of
   * its own. A unit that rejects is rolled back to its savepoint and answered at once; the others are
   * answered only after the one COMMIT that makes them durable, so no caller hears "done" before its write
   * is. The fixed cost of a commit (writing the log) is then paid once per group, not once per unit.
   *
   * A group starts one turn of the event loop after its first unit arrived (setImmediate), so the requests
   * read in that turn join it. Started at once, a unit ran and committed before the next request was even
   * parsed: under 32 clients groups held 1.15 units on average, and creating needs ran at half the rate.
   */
  run<T>(work: (repositories: Repositories) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject })
      if (!this.draining) {
        this.draining = true
        setImmediate(() => void this.drain())
      }
    })
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        await this.checkpointer?.giveGapIfAsked()
        await this.runGroup()
      }
    } finally {
      this.draining = false
    }
  }

  /** One transaction for the queue's first units (at most MAX_GROUP), committed once. */
  private async runGroup(): Promise<void> {
    try {
      this.writer.exec('BEGIN IMMEDIATE')
    } catch (error) {
      this.writeOutage.failed(error)
      this.queue.shift()!.reject(error) // busy: another process holds the file; the next unit tries again
      return
    }
    const done: Array<{ unit: QueuedUnit; result: unknown }> = []
    let changedRows = false
    const failAll = (error: unknown) => {
      for (const { unit } of done) unit.reject(error)
    }
    for (let n = 0; n < MAX_GROUP && this.queue.length > 0; n++) {
      const unit = this.queue.shift()!
      this.writer.exec('SAVEPOINT unit')
      const changesBefore = this.totalChanges()
      try {
        const result = await unit.work(this.writeRepositories)
        this.writer.exec('RELEASE unit')
        done.push({ unit, result })
        changedRows ||= this.totalChanges() > changesBefore
      } catch (error) {
        this.writeOutage.failed(error)
        unit.reject(error)
        if (!this.writer.inTransaction) {
          // SQLite gave the whole transaction up (a full disk, an I/O error): the group's writes are gone too.
          failAll(error)
          return
        }
        this.writer.exec('ROLLBACK TO unit')
        this.writer.exec('RELEASE unit')
      }
    }
    try {
      this.writer.exec('COMMIT')
    } catch (error) {
      this.writeOutage.failed(error)
      if (this.writer.inTransaction) this.writer.exec('ROLLBACK')
      failAll(error)
      return
    }
    // A group whose every unit failed, or whose units changed no row (the outbox's poll finding nothing due),
    // says nothing of whether writes work again: a full disk refuses new rows, not an empty transaction.
    if (changedRows) this.writeOutage.committed()
    for (const { unit, result } of done) unit.resolve(result)
  }

  /** A full disk, a failing one, or a file another process holds past the busy timeout: try again later. */
  liveEventFeed() {
    return new PollingLiveEventFeed(this.repositories.liveEvents)
  }

  outageOf(error: unknown) {
    return outageOf(error)
  }

  /** Rows changed on the writer since it opened (SQLite's total_changes()). */
  private totalChanges(): number {
    return this.totalChangesQuery.get()!.n
  }

  /** Whether the database answers a trivial query and writes are not failing (readiness). */
  async ping() {
    return !this.writeOutage.failing && this.reader.query('SELECT 1 AS ok').all().length === 1
  }

  async close() {
    await this.checkpointer?.stop()
    if (this.reader !== this.writer) this.reader.close()
    this.writer.close()
  }
}

function configure(db: Database): void {
  db.exec('PRAGMA busy_timeout = 5000')
  db.exec('PRAGMA foreign_keys = ON')
  db.exec('PRAGMA synchronous = NORMAL')
}
