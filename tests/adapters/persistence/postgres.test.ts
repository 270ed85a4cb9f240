import { describe } from 'bun:test'
import { postgresAvailable } from '../../support/postgres'
import { makePostgres } from './postgres-fixture'
import { describeRepositories } from './repository-contract'

if (postgresAvailable()) {
  describeRepositories('PostgreSQL', makePostgres)
}
