import { afterAll, beforeAll, expect } from 'bun:test'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { startTestServer, type TestServer } from '../../support/http'
import { seedConstituent } from './helpers'

// What the permission tests share (permissions-matrix.test.ts, permissions-coverage.test.ts, and the routes of
// permissions-routes.ts): the rows of docs/api/access.md "Permissions" written out by hand, a server of each file's
// own with a member of every role, alone and with each profile, and the records the routes' calls need.
// Each file calls `openPermissionsServer()`; its tests and the routes reach them through the bindings below.

export type Role = 'org_admin' | 'staff' | 'partner_admin' | 'partner_agent' | 'volunteer'
export type Profile =
  | 'needs_processor'
  | 'intake_staff'
  | 'sms_communicator'
  | 'email_phone_communicator'
  | 'pii_reader'
  | 'duplicate_resolver'

export const ROLES: Role[] = ['org_admin', 'staff', 'partner_admin', 'partner_agent', 'volunteer']
export const PROFILES: Profile[] = [
  'needs_processor',
  'intake_staff',
  'sms_communicator',
  'email_phone_communicator',
  'pii_reader',
  'duplicate_resolver',
]

/** A row of the table: these roles, or any role holding one of these profiles. */
export interface Rule {
  roles: Role[]
  profiles: Profile[]
}
export const EVERY_ROLE: Rule = { roles: ROLES, profiles: [] }
const CASEWORKERS: Role[] = ['org_admin', 'staff', 'partner_admin', 'partner_agent']
export const CREATE_NEEDS: Rule = { roles: CASEWORKERS, profiles: ['intake_staff'] }
export const UPDATE_NEEDS: Rule = { roles: CASEWORKERS, profiles: ['needs_processor'] }
export const SEND_SMS: Rule = { roles: ['org_admin'], profiles: ['sms_communicator'] }
export const CONSTITUENTS: Rule = { roles: CASEWORKERS, profiles: ['intake_staff'] }
export const DUPLICATES: Rule = { roles: ['org_admin'], profiles: ['duplicate_resolver'] }
export const ORG_ADMIN: Rule = { roles: ['org_admin'], profiles: [] }
export const UPDATE_PARTNERS: Rule = { roles: ['org_admin', 'partner_admin'], profiles: [] }
export const LIST_MEMBERS: Rule = { roles: ['org_admin', 'staff', 'partner_admin'], profiles: [] }
export const MANAGE_MEMBERS: Rule = { roles: ['org_admin', 'partner_admin'], profiles: [] }
export const EXPORT: Rule = { roles: ['org_admin'], profiles: ['pii_reader'] }
export const REPORTS: Rule = { roles: CASEWORKERS, profiles: [] }
export const IMPORT: Rule = { roles: ['org_admin'], profiles: [] }

export const allows = (rule: Rule, actor: ActorCase) =>
  rule.roles.includes(actor.role) || rule.profiles.some((p) => actor.profiles.includes(p))

/** Every role with no profile, and with each profile alone; the partner roles work for partner P. */
export interface ActorCase {
  label: string
  role: Role
  profiles: Profile[]
  token: string
}

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  path: string
  body?: unknown
  /** A CSV file sent as the body instead (an import). */
  csv?: string
}

/** One route: who may call it, what success looks like, and a call that succeeds for an allowed caller. */
export interface RouteCase {
  route: string
  rule: Rule
  /** A second row that must allow the call too. */
  andRule?: Rule
  success: number
  /** Builds the call; may seed what the call consumes (a merge, a match), as the org_admin. */
  call(): Promise<Call>
}

export let api: TestServer
let smtp: SMTPServer
export let admin: string
export let partnerId: string
export let needId: string
export let constituentId: string
export let volunteerId: string
export let unconfirmedId: string
export let settings: { name: string; slug: string }
export let smtpKey: string
export const actors: ActorCase[] = []
export const unique = () => crypto.randomUUID().slice(0, 8)

/** Before the tests of the file: the mail server, the server and its members and records; after them, both stopped. */
export function openPermissionsServer(): void {
  beforeAll(async () => {
    // A file run after another in the same process gets members, and a webhook endpoint, of its own.
    actors.length = 0
    endpointId = undefined
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
}

/** Two constituents of their own, as a merge consumes them. */
export async function aPairToMerge(): Promise<Call> {
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
export async function anOpenMatch(): Promise<Call> {
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

export const get = (path: string) => async (): Promise<Call> => ({ method: 'GET', path })

/** A webhook endpoint of its own (deleting consumes it); nothing listens at its URL, nothing is sent there here. */
export async function anEndpoint(): Promise<string> {
  const response = await api.call<{ id: string }>('POST', '/api/webhook-endpoints', {
    token: admin,
    body: { url: 'http://127.0.0.1:9/hook', events: ['note.added'] },
  })
  expect(response.status).toBe(201)
  return response.body.id
}
let endpointId: string | undefined
export const theEndpoint = async () => (endpointId ??= await anEndpoint())
