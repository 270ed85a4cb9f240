import { defineConfig } from 'drizzle-kit'

// The SQLite migrations that the service applies at start: `npm run db:generate` writes them with this and drizzle.pg.config.ts.
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/adapters/persistence/sqlite/schema.ts',
  out: './src/adapters/persistence/sqlite/migrations',
})
