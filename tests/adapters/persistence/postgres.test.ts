import { postgresAvailable } from '../../support/postgres'
import { makePostgres } from './postgres-fixture'
import { describeRepositories } from './repository-contract'

// The repository contract on PostgreSQL. What only PostgreSQL has is in the postgres-*.test.ts beside this
// file: several processes on one database at once (row locks, SKIP LOCKED), constraints, the pool of
// connections, migrations and query plans. Without TEST_POSTGRES_URL nothing here runs and
// postgresAvailable() says so in one line.

if (postgresAvailable()) describeRepositories('PostgreSQL', makePostgres)
