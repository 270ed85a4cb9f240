import { defineConfig } from 'drizzle-kit'

// `npx drizzle-kit generate` writes the SQLite migrations that the service applies at start.
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/adapters/persistence/sqlite/schema.ts',
  out: './src/adapters/persistence/sqlite/migrations',
})
