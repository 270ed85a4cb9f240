#!/usr/bin/env bash
# npm run db:generate: after a change to the schemas, a migration for each database (drizzle-kit generate, once
# per config), then each migrations/index.ts (bundle-migrations.ts). Arguments go to both drizzle-kit calls, so
# `npm run db:generate -- --name add_x` names the migration alike in both folders, and `-- --custom --name x`
# writes an empty one in each to fill by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
drizzle-kit generate "$@"
drizzle-kit generate --config drizzle.pg.config.ts "$@"
bun scripts/bundle-migrations.ts
