import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { startTestServer, type TestServer } from '../../support/http'
import { seedConstituent } from './helpers'

// Every route × role × profile against the permission table of docs/api.md "Permissions", over real HTTP.
// The table is written out here, not imported: the code must agree with the documentation, not with
// itself. Both directions fail: 403 where the table allows, anything but 403 where it refuses. An allowed
// call must also succeed (its 2xx), so a route cannot pass by failing for another reason.

type Role = 'org_admin' | 'staff' | 'partner_admin' | 'partner_agent' | 'volunteer'
type Profile = 'needs_processor' | 'intake_staff' | 'sms_communicator' | 'email_phone_communicator' | 'pii_reader' | 'duplicate_resolver'

const ROLES: Role[] = ['org_admin', 'staff', 'partner_admin', 'partner_agent', 'volunteer']
const PROFILES: Profile[] = [
  'needs_processor',
  'intake_staff',
  'sms_communicator',
  'email_phone_communicator',
  'pii_reader',
  'duplicate_resolver',
]

/** A row of the table: these roles, or any role holding one of these profiles. */
interface Rule {
  roles: Role[]
  profiles: Profile[]
}
const EVERY_ROLE: Rule = { roles: ROLES, profiles: [] }
const CASEWORKERS: Role[] = ['org_admin', 'staff', 'partner_admin', 'partner_agent']
const CREATE_NEEDS: Rule = { roles: CASEWORKERS, profiles: ['intake_staff'] }
const UPDATE_NEEDS: Rule = { roles: CASEWORKERS, profiles: ['needs_processor'] }
const SEND_SMS: Rule = { roles: ['org_admin'], profiles: ['sms_communicator'] }
const CONSTITUENTS: Rule = { roles: CASEWORKERS, profiles: ['intake_staff'] }
const DUPLICATES: Rule = { roles: ['org_admin'], profiles: ['duplicate_resolver'] }
const ORG_ADMIN: Rule = { roles: ['org_admin'], profiles: [] }
const UPDATE_PARTNERS: Rule = { roles: ['org_admin', 'partner_admin'], profiles: [] }
const LIST_MEMBERS: Rule = { roles: ['org_admin', 'staff', 'partner_admin'], profiles: [] }
const MANAGE_MEMBERS: Rule = { roles: ['org_admin', 'partner_admin'], profiles: [] }
const EXPORT: Rule = { roles: ['org_admin'], profiles: ['pii_reader'] }
const REPORTS: Rule = { roles: CASEWORKERS, profiles: [] }
const IMPORT: Rule = { roles: ['org_admin'], profiles: [] }

const allows = (rule: Rule, actor: ActorCase) => rule.roles.includes(actor.role) || rule.profiles.some((p) => actor.profiles.includes(p))

/** Every role with no profile, and with each profile alone; the partner roles work for partner P. */
interface ActorCase {
  label: string
  role: Role
  profiles: Profile[]
  token: string
}

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  path: string
  body?: unknown
  /** A CSV file sent as the body instead (an import). */
  csv?: string
}

/** One route: who may call it, what success looks like, and a call that succeeds for an allowed caller. */
interface RouteCase {
  route: string
  rule: Rule
  /** A second row that must allow the call too. */
  andRule?: Rule
  success: number
  /** Builds the call; may seed what the call consumes (a merge, a match), as the org_admin. */
  call(): Promise<Call>
}

let api: TestServer
let smtp: SMTPServer
let admin: string
let partnerId: string
let needId: string
let constituentId: string
let volunteerId: string
let unconfirmedId: string
let settings: { name: string; slug: string }
let smtpKey: string
const actors: ActorCase[] = []
const unique = () => crypto.randomUUID().slice(0, 8)

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, _s, done) => stream.on('data', () => {}).on('end', () => done()),
  })
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()))
  smtpKey = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`
  // Dozens of logins from one address: the per-address limit is not under test here.
  // Every role texts the same person: the limits on texts have their own tests.
  api = await startTestServer({ AUTH_RATE_LIMIT: '100000', SMS_PER_RECIPIENT_PER_HOUR: '100000' })
  const world = api.world
  admin = await api.tokenFor(world, 'org_admin')
  partnerId = (await world.partner({ name: 'Pantry P' })).id
  for (const role of ROLES) {
    for (const profiles of [[], ...PROFILES.map((p) => [p])] as Profile[][]) {
      const options = { profiles, ...(role === 'org_admin' || role === 'staff' ? {} : { partnerId }) }
      actors.push({
        label: `${role}${profiles.length ? ` + ${profiles[0]}` : ''}`,
        role,
        profiles,
        token: await api.tokenFor(world, role, options),
      })
    }
  }
  const ok = <T>(response: { status: number; body: T }, status: number): T => {
    expect({ status: response.status, body: response.body }).toMatchObject({ status })
    return response.body
  }
  constituentId = (await seedConstituent(api, admin, { firstName: 'Ada', lastName: `Matrix${unique()}`, phone: '+15550100001' }))
    .constituentId
  needId = ok(await api.call<{ id: string }>('POST', '/api/needs', { token: admin, body: { partnerId, constituentId } }), 201).id
  volunteerId = (await world.member('volunteer', { partnerId })).memberId
  unconfirmedId = ok(
    await api.call<{ id: string }>('POST', '/api/members', {
      token: admin,
      body: { email: `u-${unique()}@example.org`, role: 'volunteer', partnerId },
    }),
    201,
  ).id
  const { name, slug } = ok(await api.call<{ name: string; slug: string }>('GET', '/api/organizations/settings', { token: admin }), 200)
  settings = { name, slug }
  ok(
    await api.call('PUT', '/api/organizations/settings/email', {
      token: admin,
      body: { provider: 'smtp', apiKey: smtpKey, fromEmail: 'desk@example.org' },
    }),
    200,
  )
})
afterAll(async () => {
  await api.stop()
  await new Promise<void>((resolve) => smtp.close(() => resolve()))
})

/** Two constituents of their own, as a merge consumes them. */
async function aPairToMerge(): Promise<Call> {
  const [source, target] = await Promise.all([
    seedConstituent(api, admin, { firstName: 'Sam', lastName: `Merge${unique()}` }),
    seedConstituent(api, admin, { firstName: 'Sam', lastName: `Merge${unique()}` }),
  ])
  return {
    method: 'POST',
    path: '/api/constituents/merge',
    body: { sourceConstituentId: source.constituentId, targetConstituentId: target.constituentId },
  }
}

/** An open household match of its own (two constituents sharing a phone), as resolving consumes it. */
async function anOpenMatch(): Promise<Call> {
  const phone = `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`
  await seedConstituent(api, admin, { firstName: 'Kim', lastName: `Match${unique()}`, phone })
  const second = await seedConstituent(api, admin, { firstName: 'Lee', lastName: `Match${unique()}`, phone })
  const matches = await api.call<Array<{ id: string; constituentId: string; candidateConstituentId: string }>>(
    'GET',
    '/api/household-matches?status=OPEN&limit=100',
    { token: admin },
  )
  const match = matches.body.find((m) => m.constituentId === second.constituentId || m.candidateConstituentId === second.constituentId)
  if (!match) throw new Error('no household match was opened')
  return { method: 'POST', path: `/api/household-matches/${match.id}/resolve`, body: { action: 'DISMISS' } }
}

const get = (path: string) => async (): Promise<Call> => ({ method: 'GET', path })

/** A webhook endpoint of its own (deleting consumes it); nothing listens at its URL, nothing is sent there here. */
async function anEndpoint(): Promise<string> {
  const response = await api.call<{ id: string }>('POST', '/api/webhook-endpoints', {
    token: admin,
    body: { url: 'http://127.0.0.1:9/hook', events: ['note.added'] },
  })
  expect(response.status).toBe(201)
  return response.body.id
}
let endpointId: string | undefined
const theEndpoint = async () => (endpointId ??= await anEndpoint())

const ROUTES: RouteCase[] = [
  { route: 'GET /api/needs', rule: EVERY_ROLE, success: 200, call: get('/api/needs') },
  {
    route: 'POST /api/needs',
    rule: CREATE_NEEDS,
    success: 201,
    call: async () => ({ method: 'POST', path: '/api/needs', body: { partnerId } }),
  },
  { route: 'GET /api/needs/{id}', rule: EVERY_ROLE, success: 200, call: async () => ({ method: 'GET', path: `/api/needs/${needId}` }) },
  {
    route: 'PUT /api/needs/{id}',
    rule: UPDATE_NEEDS,
    success: 200,
    call: async () => ({ method: 'PUT', path: `/api/needs/${needId}`, body: { status: 'IN_PROGRESS' } }),
  },
  {
    route: 'POST /api/needs/{id}/notes',
    rule: EVERY_ROLE,
    success: 201,
    call: async () => ({ method: 'POST', path: `/api/needs/${needId}/notes`, body: { content: 'Called back' } }),
  },
  {
    route: 'POST /api/needs/{id}/sms',
    rule: SEND_SMS,
    success: 202,
    call: async () => ({ method: 'POST', path: `/api/needs/${needId}/sms`, body: { body: 'Your pickup is ready' } }),
  },
  {
    route: 'GET /api/needs/{id}/interactions',
    rule: EVERY_ROLE,
    success: 200,
    call: async () => ({ method: 'GET', path: `/api/needs/${needId}/interactions` }),
  },
  {
    route: 'GET /api/constituents/{id}',
    rule: CONSTITUENTS,
    success: 200,
    call: async () => ({ method: 'GET', path: `/api/constituents/${constituentId}` }),
  },
  {
    route: 'GET /api/needs/{id}/history',
    rule: EVERY_ROLE,
    success: 200,
    call: async () => ({ method: 'GET', path: `/api/needs/${needId}/history` }),
  },
  { route: 'GET /api/constituents', rule: CONSTITUENTS, success: 200, call: get('/api/constituents?query=Ada') },
  {
    route: 'POST /api/constituents',
    rule: CONSTITUENTS,
    success: 201,
    call: async () => ({ method: 'POST', path: '/api/constituents', body: { firstName: 'New', lastName: `Person${unique()}` } }),
  },
  {
    route: 'PUT /api/constituents/{id}',
    rule: CONSTITUENTS,
    success: 200,
    call: async () => ({ method: 'PUT', path: `/api/constituents/${constituentId}`, body: { firstName: 'Ada' } }),
  },
  {
    route: 'GET /api/constituents/{id}/needs',
    rule: CONSTITUENTS,
    success: 200,
    call: async () => ({ method: 'GET', path: `/api/constituents/${constituentId}/needs` }),
  },
  {
    route: 'GET /api/constituents/{id}/household',
    rule: CONSTITUENTS,
    success: 200,
    call: async () => ({ method: 'GET', path: `/api/constituents/${constituentId}/household` }),
  },
  { route: 'POST /api/constituents/merge', rule: DUPLICATES, success: 200, call: aPairToMerge },
  {
    route: 'POST /api/constituents/{id}/erase',
    rule: ORG_ADMIN,
    success: 200,
    call: async () => {
      const { constituentId: erased } = await seedConstituent(api, admin, { firstName: 'Eve', lastName: `Erase${unique()}` })
      return { method: 'POST', path: `/api/constituents/${erased}/erase` }
    },
  },
  {
    route: 'POST /api/constituents/duplicate-check',
    rule: CONSTITUENTS,
    success: 200,
    call: async () => ({ method: 'POST', path: '/api/constituents/duplicate-check', body: { firstName: 'Ada', lastName: 'Lovelace' } }),
  },
  { route: 'GET /api/household-matches', rule: DUPLICATES, success: 200, call: get('/api/household-matches') },
  { route: 'POST /api/household-matches/{id}/resolve', rule: DUPLICATES, success: 200, call: anOpenMatch },
  { route: 'GET /api/needs/export', rule: EXPORT, success: 200, call: get('/api/needs/export?format=csv') },
  {
    route: 'GET /api/constituents/export',
    rule: EXPORT,
    andRule: CONSTITUENTS,
    success: 200,
    call: get('/api/constituents/export?format=csv'),
  },
  {
    route: 'POST /api/constituents/import',
    rule: IMPORT,
    success: 200,
    call: async () => ({ method: 'POST', path: '/api/constituents/import?dryRun=true', csv: 'firstName\nAna\n' }),
  },
  {
    route: 'POST /api/needs/import',
    rule: IMPORT,
    success: 200,
    call: async () => ({ method: 'POST', path: '/api/needs/import?dryRun=true', csv: 'description,createdAt\nFood,2025-01-02\n' }),
  },
  { route: 'GET /api/partners', rule: EVERY_ROLE, success: 200, call: get('/api/partners') },
  {
    route: 'POST /api/partners',
    rule: ORG_ADMIN,
    success: 201,
    call: async () => ({ method: 'POST', path: '/api/partners', body: { name: `Partner ${unique()}`, slaHours: 48 } }),
  },
  {
    route: 'PUT /api/partners/{id} (own partner)',
    rule: UPDATE_PARTNERS,
    success: 200,
    call: async () => ({ method: 'PUT', path: `/api/partners/${partnerId}`, body: { name: 'Pantry P' } }),
  },
  { route: 'GET /api/members', rule: LIST_MEMBERS, success: 200, call: get('/api/members') },
  {
    // docs/api.md: profiles are granted by an org_admin, or by whoever holds them.
    route: 'POST /api/members (a volunteer of P, granting pii_reader)',
    rule: MANAGE_MEMBERS,
    andRule: { roles: ['org_admin'], profiles: ['pii_reader'] },
    success: 201,
    call: async () => ({
      method: 'POST',
      path: '/api/members',
      body: { email: `g-${unique()}@example.org`, role: 'volunteer', partnerId, profiles: ['pii_reader'] },
    }),
  },
  {
    route: 'PUT /api/members/{id} (a volunteer of P, granting duplicate_resolver)',
    rule: MANAGE_MEMBERS,
    andRule: { roles: ['org_admin'], profiles: ['duplicate_resolver'] },
    success: 200,
    // A fresh volunteer each time: once granted, keeping a profile is no grant.
    call: async () => ({
      method: 'PUT',
      path: `/api/members/${(await api.world.member('volunteer', { partnerId })).memberId}`,
      body: { role: 'volunteer', profiles: ['duplicate_resolver'] },
    }),
  },
  {
    route: 'POST /api/members (a volunteer of P)',
    rule: MANAGE_MEMBERS,
    success: 201,
    call: async () => ({
      method: 'POST',
      path: '/api/members',
      body: { email: `m-${unique()}@example.org`, role: 'volunteer', partnerId },
    }),
  },
  {
    route: 'PUT /api/members/{id} (a volunteer of P)',
    rule: MANAGE_MEMBERS,
    success: 200,
    call: async () => ({ method: 'PUT', path: `/api/members/${volunteerId}`, body: { role: 'volunteer' } }),
  },
  {
    route: 'DELETE /api/members/{id} (a volunteer of P)',
    rule: MANAGE_MEMBERS,
    success: 204,
    call: async () => ({ method: 'DELETE', path: `/api/members/${(await api.world.member('volunteer', { partnerId })).memberId}` }),
  },
  {
    route: 'POST /api/members/{id}/invitation',
    rule: MANAGE_MEMBERS,
    success: 200,
    call: async () => ({ method: 'POST', path: `/api/members/${unconfirmedId}/invitation`, body: {} }),
  },
  { route: 'GET /api/profile', rule: EVERY_ROLE, success: 200, call: get('/api/profile') },
  {
    route: 'PUT /api/profile',
    rule: EVERY_ROLE,
    success: 200,
    call: async () => ({ method: 'PUT', path: '/api/profile', body: { fullName: 'Pat Example' } }),
  },
  // A right password would end the caller's sessions (and its token): a wrong one shows the route allowed (400, not 403).
  {
    route: 'POST /api/profile/password',
    rule: EVERY_ROLE,
    success: 400,
    call: async () => ({
      method: 'POST',
      path: '/api/profile/password',
      body: { currentPassword: 'not the password of anyone', newPassword: 'a password of my own choosing' },
    }),
  },
  { route: 'GET /api/organizations/settings', rule: ORG_ADMIN, success: 200, call: get('/api/organizations/settings') },
  {
    route: 'PUT /api/organizations/settings',
    rule: ORG_ADMIN,
    success: 200,
    call: async () => ({ method: 'PUT', path: '/api/organizations/settings', body: settings }),
  },
  { route: 'GET /api/organizations/settings/email', rule: ORG_ADMIN, success: 200, call: get('/api/organizations/settings/email') },
  {
    route: 'PUT /api/organizations/settings/email',
    rule: ORG_ADMIN,
    success: 200,
    call: async () => ({
      method: 'PUT',
      path: '/api/organizations/settings/email',
      body: { provider: 'smtp', apiKey: smtpKey, fromEmail: 'desk@example.org' },
    }),
  },
  {
    route: 'POST /api/organizations/settings/email/test',
    rule: ORG_ADMIN,
    success: 200,
    call: async () => ({
      method: 'POST',
      path: '/api/organizations/settings/email/test',
      body: { provider: 'smtp', apiKey: smtpKey, fromEmail: 'desk@example.org', toEmail: 'x@example.org' },
    }),
  },
  {
    route: 'POST /api/webhook-endpoints',
    rule: ORG_ADMIN,
    success: 201,
    call: async () => ({
      method: 'POST',
      path: '/api/webhook-endpoints',
      body: { url: 'http://127.0.0.1:9/hook', events: ['note.added'] },
    }),
  },
  { route: 'GET /api/webhook-endpoints', rule: ORG_ADMIN, success: 200, call: get('/api/webhook-endpoints') },
  {
    route: 'GET /api/webhook-endpoints/{id}',
    rule: ORG_ADMIN,
    success: 200,
    call: async () => ({ method: 'GET', path: `/api/webhook-endpoints/${await theEndpoint()}` }),
  },
  {
    route: 'PUT /api/webhook-endpoints/{id}',
    rule: ORG_ADMIN,
    success: 200,
    call: async () => ({ method: 'PUT', path: `/api/webhook-endpoints/${await theEndpoint()}`, body: { enabled: true } }),
  },
  {
    route: 'DELETE /api/webhook-endpoints/{id}',
    rule: ORG_ADMIN,
    success: 204,
    call: async () => ({ method: 'DELETE', path: `/api/webhook-endpoints/${await anEndpoint()}` }),
  },
  {
    route: 'GET /api/webhook-endpoints/{id}/deliveries',
    rule: ORG_ADMIN,
    success: 200,
    call: async () => ({ method: 'GET', path: `/api/webhook-endpoints/${await theEndpoint()}/deliveries` }),
  },
  { route: 'GET /api/audit-events', rule: ORG_ADMIN, success: 200, call: get('/api/audit-events') },
  { route: 'GET /api/reports/needs', rule: REPORTS, success: 200, call: get('/api/reports/needs?from=2026-11-01&to=2026-11-30') },
  {
    route: 'POST /api/auth/logout',
    rule: EVERY_ROLE,
    success: 204,
    call: async () => ({ method: 'POST', path: '/api/auth/logout', body: { refreshToken: 'not-a-session-of-anyone' } }),
  },
  // Without the session cookie: nothing to revoke, still 204 to every role.
  {
    route: 'POST /api/auth/session/logout',
    rule: EVERY_ROLE,
    success: 204,
    call: async () => ({ method: 'POST', path: '/api/auth/session/logout', body: {} }),
  },
]

describe('every route × role × profile against the permission table', () => {
  test.each(ROUTES.map((r) => [r.route, r] as const))('%s', async (_route, route) => {
    // A refused caller is refused before anything is looked up or consumed: they share one call.
    const shared = await route.call()
    const outcomes = await Promise.all(
      actors.map(async (actor) => {
        const allowed = allows(route.rule, actor) && (!route.andRule || allows(route.andRule, actor))
        const call = allowed ? await route.call() : shared
        const response = await api.call(call.method, call.path, {
          token: actor.token,
          ...(call.body === undefined ? {} : { body: call.body }),
          ...(call.csv === undefined ? {} : { raw: call.csv, headers: { 'content-type': 'text/csv' } }),
        })
        const expected = allowed ? route.success : 403
        const problem = response.body as { detail?: string; errors?: unknown }
        return response.status === expected
          ? undefined
          : `${actor.label}: ${response.status} where ${expected} ${JSON.stringify([problem?.detail, problem?.errors])}`
      }),
    )
    expect(outcomes.filter(Boolean)).toEqual([])
    expect(outcomes).toHaveLength(ROLES.length * (PROFILES.length + 1))
  })

  test('the table covers every authenticated route of the OpenAPI document', async () => {
    const document = await api.call<{ paths: Record<string, Record<string, { security?: unknown[] }>> }>('GET', '/api/openapi.json')
    const documented = Object.entries(document.body.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        // Member routes only: the SMS provider's webhooks carry a signature, not a member's token.
        .filter(([, operation]) => (operation.security ?? []).some((requirement) => 'bearer' in (requirement as object)))
        .map(([method]) => `${method.toUpperCase()} ${path.replace(/:(\w+)/g, '{$1}')}`),
    )
    const tested = new Set(ROUTES.map((r) => r.route.replace(/ \(.*\)$/, '')))
    expect(documented.length).toBeGreaterThanOrEqual(tested.size)
    expect(documented.filter((route) => !tested.has(route)).sort()).toEqual([])
  })
})
