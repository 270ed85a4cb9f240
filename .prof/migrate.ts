import { SqliteDatabase } from '../src/adapters/persistence/sqlite/sqlite-database'
for (const path of process.argv.slice(2)) {
  const t = Date.now()
  const db = new SqliteDatabase(path)
  const outcome = await db.migrate()
  await db.close()
  console.log(path, 'migrated in', Date.now() - t, 'ms', outcome)
}
