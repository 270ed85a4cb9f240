import { describe, expect, test } from 'bun:test'
import { DrizzleQueryError } from 'drizzle-orm/errors'
import { classifyDatabaseError, statementOf } from '../../../src/adapters/persistence/shared/database-errors'

// What each driver's code means (docs/reliability.md): outages answer 503 and are counted by kind; any other
// code is the database refusing the statement.
const withCode = (code: string) => Object.assign(new Error('driver error'), { code })

describe('a database error', () => {
  test.each([
    ['SQLITE_FULL', 'disk_full'],
    ['SQLITE_IOERR', 'io_error'],
    ['SQLITE_IOERR_WRITE', 'io_error'],
    ['SQLITE_BUSY', 'busy'],
    ['SQLITE_BUSY_SNAPSHOT', 'busy'],
    ['SQLITE_LOCKED', 'busy'],
    ['SQLITE_NOMEM', 'out_of_resources'],
    ['53300', 'too_many_connections'],
    ['53100', 'disk_full'],
    ['53200', 'out_of_resources'],
    ['53400', 'out_of_resources'],
    ['57P01', 'shutdown'],
    ['57P02', 'shutdown'],
    ['57P03', 'shutdown'],
    ['08006', 'unreachable'],
    ['ECONNREFUSED', 'unreachable'],
    ['CONNECTION_CLOSED', 'unreachable'],
    ['CONNECT_TIMEOUT', 'unreachable'],
    ['QUERY_TIMEOUT', 'unreachable'],
    ['25006', 'read_only'],
    ['UNIT_TIMED_OUT', 'timed_out'],
    ['UNIT_IN_DOUBT', 'in_doubt'],
    ['40P01', 'busy'],
  ])('%s is an outage of kind %s, alone or inside drizzle’s error', (code, kind) => {
    expect(classifyDatabaseError(withCode(code))).toEqual({ kind: kind as never, retryable: true })
    expect(classifyDatabaseError(new DrizzleQueryError('select 1', [], withCode(code)))).toEqual({ kind: kind as never, retryable: true })
  })

  test.each(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_FOREIGNKEY', '23505', '22021', '22P02', '42P01'])(
    '%s is the statement refused, not an outage',
    (code) => {
      expect(classifyDatabaseError(withCode(code))).toEqual({ kind: 'refused', retryable: false })
    },
  )

  test('an error without a code is none of the database’s', () => {
    expect(classifyDatabaseError(new Error('x'))).toBeUndefined()
    expect(classifyDatabaseError('text')).toBeUndefined()
  })

  test.each([
    ['insert into "needs" ("id") values ($1)', 'insert into needs'],
    ['update "outbox_messages" set "status" = $1 where "id" = $2', 'update outbox_messages'],
    ['delete from "refresh_tokens" where "expires_at" < $1', 'delete from refresh_tokens'],
    ['select "id", "name" from "members" where "email" = $1', 'select from members'],
    ['with "x" as (select 1) select * from "needs"', 'select from needs'],
    ['COMMIT', 'commit'],
  ])('the statement %s is named %s, without its values', (query, name) => {
    expect(statementOf(query)).toBe(name)
  })
})
