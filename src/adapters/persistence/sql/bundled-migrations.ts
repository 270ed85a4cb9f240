import { createHash } from 'node:crypto'
import type { MigrationMeta } from 'drizzle-orm/migrator'

/** drizzle-kit's meta/_journal.json: the migrations of a folder, oldest first. */
export interface MigrationJournal {
  entries: ReadonlyArray<{ tag: string; when: number; breakpoints: boolean }>
}

export interface Migration extends MigrationMeta {
  /** The file's name without `.sql` (`0003_sms`). */
  tag: string
}

/**
 * The migrations drizzle-kit wrote, from the files imported into the program (each dialect's
 * `migrations/index.ts`), in the shape drizzle's migrator reads from a folder: the same code runs from
 * source and from the compiled binary, which has no folder beside it.
 */
export function bundledMigrations(journal: MigrationJournal, sqlByTag: Record<string, string>): Migration[] {
  return journal.entries.map(({ tag, when, breakpoints }) => {
    const sql = sqlByTag[tag]
    if (sql === undefined) throw new Error(`migration ${tag} is in the journal but not imported: run npm run db:generate`)
    return {
      tag,
      sql: sql.split('--> statement-breakpoint'),
      bps: breakpoints,
      folderMillis: when,
      hash: createHash('sha256').update(sql).digest('hex'),
    }
  })
}

/**
 * What drizzle's own migrate() does once it has read a folder, with these migrations instead: its
 * database's dialect and session are marked internal in its types, hence the cast. Answers what the
 * dialect does (SQLite's is synchronous, PostgreSQL's a promise).
 */
export function applyMigrations<R>(db: object, migrations: Migration[]): R {
  const { dialect, session } = db as {
    dialect: { migrate(migrations: Migration[], session: unknown, config: object): R }
    session: unknown
  }
  return dialect.migrate(migrations, session, {})
}
