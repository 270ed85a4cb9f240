import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import type { Need } from '../../../src/domain/needs/need'
import { PORTS } from '../../../src/main/container'
import { startTestServer, TEST_DATABASE, type TestServer } from '../../support/http'
import { expectProblem } from './helpers'

// docs/observability.md "Logs": no log line carries a statement's parameters, whatever the database refused.
// Drizzle's error says `Failed query: … params: <every value>`, and PostgreSQL's detail quotes the row; the
// log names the statement and the database's code instead.
let api: TestServer
let admin: string
let need: Need

beforeAll(async () => {
  api = await startTestServer()
  admin = await api.tokenFor(api.world, 'org_admin')
  const id = (await api.call('POST', '/api/needs', { token: admin, body: { partnerId: api.world.defaultPartner.id } })).body.id
  need = (await api.world.repositories.needs.findById(api.world.organizationId, id))!
})
afterAll(() => api.stop())

/** Values a database refuses or stores oddly: any text, lone surrogates, quotes, line breaks, "params:" itself. */
const failingValue = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('\ud800', 'a\udfffb', "O'Brien", '"; DROP TABLE needs; --', 'line\nparams: more', '\u0000'),
)

describe('a statement the database refuses', () => {
  test('is a 500 whose log line names the statement and code, never a value it carried', async () => {
    const listPartners = api.world.useCases.partners.list
    const execute = listPartners.execute
    let run = 0
    try {
      await fc.assert(
        fc.asyncProperty(failingValue, async (value) => {
          const mark = `Leak${++run}Mark`
          const logged = api.logs.length
          // A real write the database refuses: a need of a partner that does not exist (a foreign key),
          // carrying the value in its fields (PostgreSQL may refuse the value itself first).
          listPartners.execute = () =>
            api.server.container.get(PORTS.unitOfWork).run((repositories) =>
              repositories.needs.insert({
                ...need,
                id: crypto.randomUUID(),
                referenceNumber: `${mark}-${run}`,
                partnerId: crypto.randomUUID(),
                customFields: { name: `${mark}${value}` },
              }),
            ) as never
          expectProblem(await api.call('GET', '/api/partners', { token: admin }), 500, 'Internal server error')
          const lines = api.logs.slice(logged).join('\n')
          expect(lines).not.toContain(mark)
          // PostgreSQL's refusal comes through drizzle, which knows the statement; bun:sqlite's comes alone.
          expect(lines).toMatch(
            TEST_DATABASE === 'postgres'
              ? /"database error [0-9A-Z]{5} in insert into needs"/
              : /"database error SQLITE_CONSTRAINT_FOREIGNKEY"/,
          )
        }),
        { numRuns: TEST_DATABASE === 'postgres' ? 40 : 80 },
      )
    } finally {
      listPartners.execute = execute
    }
  })
})
