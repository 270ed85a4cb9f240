// Writes each dialect's migrations/index.ts from drizzle-kit's journal: one import per migration file, so
// the migrations are bundled into the program (and the compiled binary) instead of read from a folder.
// Run by `npm run db:generate` (scripts/db-generate.sh) after drizzle-kit;
// tests/adapters/persistence/sqlite-backup.test.ts ("migrations bundled into the program") fails when an index.ts
// no longer matches its folder.
import { join } from 'node:path'
import type { MigrationJournal } from '../src/adapters/persistence/sql/bundled-migrations'

const FOLDERS = {
  SQLITE_MIGRATIONS: 'src/adapters/persistence/sqlite/migrations',
  POSTGRES_MIGRATIONS: 'src/adapters/persistence/postgres/migrations',
}

function indexSource(name: string, journal: MigrationJournal): string {
  const imports = journal.entries.map((e, i) => `import m${i} from './${e.tag}.sql' with { type: 'text' }`)
  const entries = journal.entries.map((e, i) => `  '${e.tag}': m${i},`)
  return [
    '// Written by `npm run db:generate` (scripts/bundle-migrations.ts) from meta/_journal.json: do not edit.',
    "import { bundledMigrations } from '../../sql/bundled-migrations'",
    "import journal from './meta/_journal.json' with { type: 'json' }",
    ...imports,
    '',
    `export const ${name} = bundledMigrations(journal, {`,
    ...entries,
    '})',
    '',
  ].join('\n')
}

if (import.meta.main) {
  const root = join(import.meta.dir, '..')
  for (const [name, folder] of Object.entries(FOLDERS)) {
    const journal = (await Bun.file(join(root, folder, 'meta', '_journal.json')).json()) as MigrationJournal
    await Bun.write(join(root, folder, 'index.ts'), indexSource(name, journal))
    console.log(`${folder}/index.ts: ${journal.entries.length} migrations`)
  }
}
