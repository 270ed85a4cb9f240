import { defineConfig } from 'drizzle-kit'

// `npx drizzle-kit generate --config drizzle.pg.config.ts` writes the PostgreSQL migrations.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/adapters/persistence/postgres/schema.ts',
  out: './src/adapters/persistence/postgres/migrations',
})
