import type { Repositories } from '../../../application/ports/repositories'
import { sqlRepositories, type SqlDb } from '../sql/sql-repositories'
import { sqliteDialect } from './sqlite-dialect'

export type SqliteDb = SqlDb

export function sqliteRepositories(db: SqliteDb): Repositories {
  return sqlRepositories(db, sqliteDialect)
}
