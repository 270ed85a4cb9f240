import { afterAll, beforeAll, expect } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import type { Profile, Role } from '../../../src/domain/auth/roles'
import { PORTS } from '../../../src/main/container'
import { startTestServer, type TestServer } from '../../support/http'
import { holds, PROFILE_COLUMNS, ROLE_LINES } from '../../support/permissions'
import type { Access, Records } from '../../support/routes'
import type { World } from '../../support/world'
import { seedConstituent } from './helpers'

// What the permission matrix (permissions-matrix.test.ts) shares: a server of each file's own with a member of every
// role of the grid (tests/support/permissions.ts), alone and with each profile, and the records the calls of the
// routes (tests/support/routes.ts) are made of. Each file calls `openPermissionsServer()`; its tests reach them
// through the bindings below.

export const ROLES = [...ROLE_LINES]
export const PROFILES = [...PROFILE_COLUMNS]

/** Every role with no profile, and with each profile alone; the partner roles work for partner P. */
export interface ActorCase {
  label: string
  role: Role
  profiles: Profile[]
  token: string
}

/** Whether the grid lets the actor call a route of `access`: any member, or one holding each permission. */
export const allows = (access: Access, actor: ActorCase) =>
  access === 'member' || (Array.isArray(access) && access.every((permission) => holds(actor.role, actor.profiles, permission)))

export let api: TestServer
let smtp: SMTPServer
let endpointId: string | undefined
export let admin: string
export let records: Records
export const actors: ActorCase[] = []
const unique = () => crypto.randomUUID().slice(0, 8)

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
    const smtpKey = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`
    // Dozens of logins from one address: the per-address limit is not under test here.
    // Every role texts the same person: the limits on texts have their own tests.
    api = await startTestServer({ AUTH_RATE_LIMIT: '100000', SMS_PER_RECIPIENT_PER_HOUR: '100000' })
    const world = api.world
    admin = await api.tokenFor(world, 'org_admin')
    const partnerId = (await world.partner({ name: 'Pantry P' })).id
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
    const { constituentId } = await seedConstituent(api, admin, { firstName: 'Ada', lastName: `Matrix${unique()}`, phone: '+15550100001' })
    const needId = ok(await api.call<{ id: string }>('POST', '/api/needs', { token: admin, body: { partnerId, constituentId } }), 201).id
    const volunteerId = (await world.member('volunteer', { partnerId })).memberId
    const serviceId = ok(
      await api.call<{ id: string }>('POST', '/api/services', { token: admin, body: { partnerId, name: 'Pantry' } }),
      201,
    ).id
    const unconfirmedId = ok(
      await api.call<{ id: string }>('POST', '/api/members', {
        token: admin,
        body: { email: `u-${unique()}@example.org`, role: 'volunteer', partnerId },
      }),
      201,
    ).id
    const { name, slug } = ok(await api.call<{ name: string; slug: string }>('GET', '/api/organizations/settings', { token: admin }), 200)
    const newVolunteer = async () => (await world.member('volunteer', { partnerId })).memberId
    const theEndpoint = async () => (endpointId ??= await newEndpoint())
    const newMessage = () => aTextOnNoNeed(world)
    const seeds = { unique, newConstituent, newVolunteer, pairToMerge, openMatch, newEndpoint, theEndpoint, newMessage }
    records = { partnerId, needId, serviceId, constituentId, volunteerId, unconfirmedId, settings: { name, slug }, smtpKey, ...seeds }
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

/** A constituent of its own, as erasing consumes it. */
async function newConstituent(): Promise<string> {
  return (await seedConstituent(api, admin, { firstName: 'Eve', lastName: `Erase${unique()}` })).constituentId
}

/** Two constituents of their own, as a merge consumes them. */
async function pairToMerge() {
  const [source, target] = await Promise.all([
    seedConstituent(api, admin, { firstName: 'Sam', lastName: `Merge${unique()}` }),
    seedConstituent(api, admin, { firstName: 'Sam', lastName: `Merge${unique()}` }),
  ])
  return { sourceConstituentId: source.constituentId, targetConstituentId: target.constituentId }
}

/** An open household match of its own (two constituents sharing a phone), as resolving consumes it. */
async function openMatch(): Promise<string> {
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
  return match.id
}

/** A webhook endpoint of its own (deleting consumes it); nothing listens at its URL, nothing is sent there here. */
async function newEndpoint(): Promise<string> {
  const response = await api.call<{ id: string }>('POST', '/api/webhook-endpoints', {
    token: admin,
    body: { url: 'http://127.0.0.1:9/hook', events: ['note.added'] },
  })
  expect(response.status).toBe(201)
  return response.body.id
}

/** A text on no need from a number of its own, as Twilio's webhook would have kept it (the webhook has its own tests). */
async function aTextOnNoNeed(world: World): Promise<string> {
  const id = randomUUID()
  const from = `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`
  const text = { id, organizationId: world.organizationId, channel: 'sms', direction: 'inbound', senderIdentifier: from } as const
  const unitOfWork = world.container.get(PORTS.unitOfWork)
  await unitOfWork.run((r) => r.interactions.insert({ ...text, content: 'Hello?', createdAt: new Date() }))
  return id
}
