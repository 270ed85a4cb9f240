import { afterAll, beforeAll, expect, test } from 'bun:test'
import fc from 'fast-check'
import type { Profile, Role } from '../../../src/domain/auth/roles'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { callFor, operation, readable, remember, type Kind, type Tenant } from './tenant-isolation-operations'

// docs/reliability.md "Tenant isolation": random sequences of operations over real HTTP by members of two
// organizations, each operation free to name records of either one (ids are picked from both organizations'
// records alike). Whatever the sequence, no answer to a member of one organization carries an id, a name,
// an email or a phone of the other's records. ISOLATION_RUNS and ISOLATION_SEED make a longer run.
// The operations, their calls and what their answers show are in tenant-isolation-operations.ts.
const RUNS = Number(process.env.ISOLATION_RUNS ?? 40)
const SEED = Number(process.env.ISOLATION_SEED ?? 20261123)

let api: TestServer
let tenants: [Tenant, Tenant]
/** Calls made, those that named a record of the other organization, and those answered 2xx (not vacuous). */
let calls = 0
let crossCalls = 0
let successes = 0

async function tenant(world: World, name: string, tag: string, phoneDigit: number): Promise<Tenant> {
  const partner = await world.partner({ name: `${tag} pantry` })
  const roles: Array<[Role, Profile[], string?]> = [
    ['org_admin', []],
    ['staff', ['pii_reader', 'duplicate_resolver']],
    ['partner_admin', [], partner.id],
    ['partner_agent', ['intake_staff', 'needs_processor', 'pii_reader'], partner.id],
  ]
  const actors = []
  for (const [role, profiles, partnerId] of roles) {
    actors.push({ role, token: await api.tokenFor(world, role, { profiles, ...(partnerId ? { partnerId } : {}) }) })
  }
  const organization = await world.repositories.organizations.findById(world.organizationId)
  const secrets = new Set(
    [world.organizationId, organization!.name, organization!.slug, partner.id, `${tag} pantry`, world.defaultPartner.id].map((s) =>
      s.toLowerCase(),
    ),
  )
  const records: Record<Kind, string[]> = {
    need: [],
    constituent: [],
    household: [],
    partner: [partner.id, world.defaultPartner.id],
    member: [],
    match: [],
  }
  return { name, tag, phoneDigit, actors, secrets, records }
}

beforeAll(async () => {
  api = await startTestServer()
  const other = await api.world.otherOrganization()
  tenants = [await tenant(api.world, 'A', 'Kqa', 3), await tenant(other, 'B', 'Wzb', 4)]
})
afterAll(() => api.stop())

test('no answer to a member of one organization carries an id, name, email or phone of the other', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(operation, { minLength: 10, maxLength: 40 }), async (operations) => {
      for (const op of operations) {
        const self = tenants[op.tenant]!
        const other = tenants[1 - op.tenant]!
        const actor = self.actors[op.actor]!
        const call = callFor(op, self, other)
        if (call.names.some((id) => Object.values(other.records).some((ids) => ids.includes(id)))) crossCalls++
        calls++
        const response = await api.call(call.method, call.path, {
          token: actor.token,
          ...(call.body !== undefined ? { body: call.body } : {}),
        })
        const where = `${actor.role} of ${self.name}: ${call.method} ${call.path} → ${response.status}`
        expect(response.status, where).toBeLessThan(500)
        const text = readable(response)
        const leaked = [...other.secrets].filter((secret) => text.includes(secret))
        expect(leaked, `${where} carries records of ${other.name}`).toEqual([])
        if (response.status < 300) {
          successes++
          remember(self, call.path, response.body)
        }
      }
    }),
    { seed: SEED, numRuns: RUNS },
  )
  console.log(
    `tenant isolation: ${calls} calls in ${RUNS} sequences, ${crossCalls} naming the other organization's records, ${successes} answered 2xx, no leak`,
  )
  expect(crossCalls).toBeGreaterThan(0)
  expect(successes).toBeGreaterThan(0)
}, 60_000)
