import { defineConfig } from 'drizzle-kit'

// The PostgreSQL migrations: `npm run db:generate` writes them with this and drizzle.config.ts.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/adapters/persistence/postgres/schema.ts',
  out: './src/adapters/persistence/postgres/migrations',
})
