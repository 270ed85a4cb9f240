import { eq, sql } from 'drizzle-orm'
import type { PostgresJsDatabase } from 'drizzle-orm/postgres-js'
import type { PreparedStatements } from '../sql/prepared-statements'
import type { SqlDb } from '../sql/sql-repositories'
import type { UnreadWrites } from '../sql/unread-writes'
import { driverError } from '../sql/sql-dialect'
import type { SetupVersionsOf } from './setup-cache'
import * as schema from './schema'

/** `check_setup_version`'s refusal: the organization's partners or webhook subscriptions changed. */
const SETUP_CHANGED = 'SV001'

export function setupChanged(error: unknown): boolean {
  return driverError(error)?.code === SETUP_CHANGED
}

const { organizations } = schema
const byId = eq(organizations.id, sql.placeholder('organizationId'))

/**
 * An organization's setup version (migration 0020_setup_versions), read and checked in one transaction:
 * prepared statements over the organization's row, so that each goes out with the statements around it.
 */
export class SetupVersions implements SetupVersionsOf {
  constructor(
    private readonly builder: PostgresJsDatabase<typeof schema>,
    private readonly statements: PreparedStatements,
    private readonly db: SqlDb,
    private readonly writes: UnreadWrites,
  ) {}

  async read(organizationId: string): Promise<string | undefined> {
    const build = () =>
      this.builder
        .select({ version: sql<string>`coalesce((SELECT version FROM setup_versions WHERE organization_id = ${organizations.id}), '')` })
        .from(organizations)
        .where(byId)
    const [row] = await this.statements.run<{ version: string }>('setup_version', build, { organizationId }, this.db)
    return row?.version
  }

  check(organizationId: string, version: string): void {
    const build = () =>
      this.builder
        .select({ version: sql<string>`check_setup_version(${organizations.id}, ${sql.placeholder('version')}::text)` })
        .from(organizations)
        .where(byId)
    // Its failure, the first of the transaction's, is the unit of work's (SentWrites).
    void this.writes.send(this.statements.run('setup_version_check', build, { organizationId, version }, this.db))
  }
}
