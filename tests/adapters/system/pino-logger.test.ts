import { describe, expect, test } from 'bun:test'
import { DrizzleQueryError } from 'drizzle-orm/errors'
import fc from 'fast-check'
import type { AccessLine } from '../../../src/adapters/http/observability'
import { PinoLogger } from '../../../src/adapters/system/pino-logger'
import { requestContext } from '../../../src/adapters/system/request-context'

// docs/observability.md "Logs": whatever a caller passes (the error, its String(), its stack, nested in
// fields, or in the message), a database's error is written by statement and code, never its parameters.
// The worker logs `String(error)`, the HTTP layer the error itself: both meet this net.
function captured() {
  const lines: string[] = []
  return { lines, logger: new PinoLogger('debug', { write: (line: string) => void lines.push(line) }) }
}

const refused = (values: unknown[]) =>
  new DrizzleQueryError(
    'insert into "needs" ("id", "custom_fields") values ($1, $2)',
    values,
    Object.assign(new Error('invalid byte sequence'), {
      name: 'PostgresError',
      code: '22021',
      detail: `Failing row contains (${values.join(', ')})`,
    }),
  )

describe('the log', () => {
  test('never holds the values of a failed statement, however the error is passed', () => {
    let run = 0
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const mark = `Value${++run}Mark`
        const error = refused([crypto.randomUUID(), `${mark}${value}`])
        const { lines, logger } = captured()
        logger.error('unexpected error', { error })
        logger.error('outbox delivery failed', { error: String(error) })
        logger.warn('nested', { attempt: { errors: [error, error.stack] } })
        logger.info(`cut short: ${String(error)}`)
        const text = lines.join('')
        expect(text).not.toContain(mark)
        expect(JSON.parse(lines[0]!).error).toBe('database error 22021 in insert into needs')
        expect(JSON.parse(lines[1]!).error).toBe(`${error.name}: Failed query: insert into needs (parameters not logged)`)
      }),
      { numRuns: 50 },
    )
  })

  test('keeps other errors whole, with their stack', () => {
    const { lines, logger } = captured()
    logger.error('unexpected error', { error: new TypeError('x is not a function') })
    expect(JSON.parse(lines[0]!).error).toStartWith('TypeError: x is not a function\n    at ')
  })

  test('writes no secret a caller passes, at any depth it walks', () => {
    const { lines, logger } = captured()
    logger.info('careless', {
      password: 'Pw-Mark-1',
      request: { headers: { authorization: 'Bearer Mark-2', cookie: 'session=Mark-3' } },
      attempts: [{ token: 'Mark-4' }, { member: { apiKey: 'Mark-5', secret: 'Mark-6' } }],
      kept: 'visible',
    })
    const line = JSON.parse(lines[0]!)
    expect(lines[0]).not.toMatch(/Mark-\d/)
    expect(line.password).toBe('[redacted]')
    expect(line.request.headers).toEqual({ authorization: '[redacted]', cookie: '[redacted]' })
    expect(line.attempts[1].member).toEqual({ apiKey: '[redacted]', secret: '[redacted]' })
    expect(line.kept).toBe('visible')
  })
})

// docs/observability.md "Logs": the access line is written from a template, not by pino; it must read as
// the line pino writes for the same fields, whatever the method and route hold and whoever asked.
describe('the access line', () => {
  const asPino = (line: AccessLine) => {
    const { lines, logger } = captured()
    logger.info('request', { ...line })
    return lines[0]!
  }
  const asTemplate = (line: AccessLine) => {
    const { lines, logger } = captured()
    logger.request(line)
    return lines[0]!
  }
  const withoutTime = (line: string) => {
    const { time, ...rest } = JSON.parse(line)
    expect(new Date(time).toISOString()).toBe(time)
    return rest
  }

  test('is the line pino writes for its fields, with and without a request and its member', () => {
    fc.assert(
      fc.property(
        fc.record({
          method: fc.string({ unit: 'binary' }),
          route: fc.string({ unit: 'binary' }),
          status: fc.integer({ min: 100, max: 599 }),
          durationMs: fc.double({ min: 0, max: 1e6, noNaN: true }),
        }),
        fc.option(
          fc.record({ requestId: fc.string(), memberId: fc.option(fc.uuid(), { nil: undefined }) }, { requiredKeys: ['requestId'] }),
          {
            nil: undefined,
          },
        ),
        (line, context) => {
          const write = (as: (line: AccessLine) => string) => (context ? requestContext.run({ ...context }, () => as(line)) : as(line))
          const template = write(asTemplate)
          expect(template.endsWith('}\n')).toBe(true)
          expect(withoutTime(template)).toEqual(withoutTime(write(asPino)))
        },
      ),
      { numRuns: 200 },
    )
  })

  test('stays the line pino writes, at its time, as lines repeat their fields and members come and go', () => {
    const { lines, logger } = captured()
    const routes = ['/api/needs/:id', '/api/needs', 'unmatched']
    for (let i = 0; i < 2500; i++) {
      // More members than the quoted texts keep, each coming back: kept, dropped and quoted anew.
      const context = { requestId: `r-${i}`, memberId: `member-${i % 1500}` }
      const line = { method: i % 7 === 0 ? 'POST' : 'GET', route: routes[i % 3]!, status: 200, durationMs: i / 10 }
      const before = Date.now()
      requestContext.run(context, () => logger.request(line))
      const written = JSON.parse(lines.at(-1)!)
      expect(Date.parse(written.time)).toBeGreaterThanOrEqual(before)
      expect(Date.parse(written.time)).toBeLessThanOrEqual(Date.now())
      expect(withoutTime(lines.at(-1)!)).toEqual(withoutTime(requestContext.run(context, () => asPino(line))))
    }
  })

  test('is not written below the info level', () => {
    const lines: string[] = []
    new PinoLogger('warn', { write: (line: string) => void lines.push(line) }).request({
      method: 'GET',
      route: '/x',
      status: 200,
      durationMs: 1,
    })
    expect(lines).toEqual([])
  })
})
