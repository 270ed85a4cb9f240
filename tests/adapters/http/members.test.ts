import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DispatchOutbox } from '../../../src/application/messaging/dispatch-outbox'
import type { Partner } from '../../../src/domain/partners/partner'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import {
  claimsOf,
  deliverUntil,
  expectBadRequest,
  expectProblem,
  invitationIn,
  loggedEmailsTo,
  loggedInvitationTo,
  UNKNOWN_ID,
} from './helpers'

// docs/api.md "Tokens" (accept-invite), "Permissions"; docs/api.md "Members and
// invitations", over real HTTP. Invitations of an organization without email settings go to the log.
type MemberJson = {
  id: string
  email: string
  fullName?: string
  role: string
  partnerId?: string
  partnerName?: string
  profiles?: string[]
  isConfirmed: boolean
  phone?: string
  lastLoginAt?: string
}
type TokenPair = { accessToken: string; refreshToken: string; tokenType: string; expiresIn: number }

const BASE_URL = 'https://app.example.test'
const NEW_PASSWORD = 'a brand new long password'

let api: TestServer
let world: World
let other: World
let partnerA: Partner
let partnerB: Partner
const tokens: Record<string, string> = {}
/** Member ids behind some of the tokens. */
const ids: Record<string, string> = {}

beforeAll(async () => {
  api = await startTestServer({ PUBLIC_BASE_URL: BASE_URL })
  world = api.world
  other = await world.otherOrganization()
  partnerA = await world.partner({ name: 'Pantry A' })
  partnerB = await world.partner({ name: 'Pantry B' })
  const [admin, staff, partnerAdminA, agentA, volunteerA, agentB, otherAdmin] = await Promise.all([
    api.tokenFor(world, 'org_admin'),
    api.tokenFor(world, 'staff'),
    api.tokenFor(world, 'partner_admin', { partnerId: partnerA.id }),
    api.tokenFor(world, 'partner_agent', { partnerId: partnerA.id }),
    api.tokenFor(world, 'volunteer', { partnerId: partnerA.id }),
    api.tokenFor(world, 'partner_agent', { partnerId: partnerB.id }),
    api.tokenFor(other, 'org_admin'),
  ])
  Object.assign(tokens, { admin, staff, partnerAdminA, agentA, volunteerA, agentB, otherAdmin })
  for (const [name, token] of Object.entries(tokens)) ids[name] = claimsOf(token).sub
})
afterAll(() => api.stop())

const uniqueEmail = (label = 'member') => `${label}-${crypto.randomUUID().slice(0, 8)}@example.org`
const invite = (body: unknown, token = tokens.admin) => api.call<MemberJson>('POST', '/api/members', { token, body })
const update = (id: string, body: unknown, token = tokens.admin) => api.call<MemberJson>('PUT', `/api/members/${id}`, { token, body })
const acceptInvite = (body: unknown) => api.call<TokenPair>('POST', '/api/auth/accept-invite', { body })

async function members(token = tokens.admin): Promise<MemberJson[]> {
  const response = await api.call<MemberJson[]>('GET', '/api/members?limit=100', { token })
  expect(response.status).toBe(200)
  expect(Number(response.headers.get('x-total-count'))).toBeLessThanOrEqual(100)
  return response.body
}

async function memberById(id: string, token = tokens.admin): Promise<MemberJson | undefined> {
  return (await members(token)).find((m) => m.id === id)
}

/** Invites a member (201 expected) and answers it. */
async function invited(body: Record<string, unknown> = {}, token = tokens.admin): Promise<MemberJson> {
  const response = await invite({ email: uniqueEmail(), role: 'staff', ...body }, token)
  expect({ status: response.status, body: response.body }).toMatchObject({ status: 201 })
  return response.body
}

/** The invitation token emailed (through the log fallback) to `email`. */
async function invitationTokenFor(email: string): Promise<string> {
  return invitationIn((await loggedInvitationTo(api, email)).text).token
}

describe('invite → accept-invite → login', () => {
  test('the whole path works end to end, and the member ends up confirmed', async () => {
    const created = await invite({ email: 'New.Person@Example.ORG', role: 'staff', fullName: 'New Person' })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ email: 'new.person@example.org', role: 'staff', fullName: 'New Person', isConfirmed: false })

    // The invitation went through the outbox to the log fallback, with a link to PUBLIC_BASE_URL.
    const email = await loggedInvitationTo(api, 'new.person@example.org')
    expect(email.organizationId).toBe(world.organizationId)
    expect(email.subject).toContain('invited')
    const { link, token } = invitationIn(email.text)
    expect(link).toStartWith(`${BASE_URL}/accept-invite?token=`)
    expect(token.length).toBeGreaterThanOrEqual(32)

    // Unconfirmed and without a password: no login yet.
    const early = await api.call('POST', '/api/auth/login', { body: { email: 'new.person@example.org', password: NEW_PASSWORD } })
    expectProblem(early, 401, 'Unauthorized')

    const accepted = await acceptInvite({ token, password: NEW_PASSWORD })
    expect(accepted.status).toBe(200)
    expect(Object.keys(accepted.body).sort()).toEqual(['accessToken', 'expiresIn', 'refreshToken', 'tokenType'])
    expect(accepted.body.tokenType).toBe('Bearer')
    expect(claimsOf(accepted.body.accessToken)).toMatchObject({ sub: created.body.id, org: world.organizationId })

    // The tokens answered work.
    const profile = await api.call('GET', '/api/profile', { token: accepted.body.accessToken })
    expect(profile.status).toBe(200)
    expect(profile.body).toMatchObject({
      id: created.body.id,
      email: 'new.person@example.org',
      fullName: 'New Person',
      role: 'staff',
      profiles: [],
      permissions: expect.arrayContaining(['needs:update', 'members:list']),
    })

    // The password chosen logs in (the email in any case).
    const login = await api.call<TokenPair>('POST', '/api/auth/login', {
      body: { email: 'NEW.person@example.org', password: NEW_PASSWORD },
    })
    expect(login.status).toBe(200)
    expect(claimsOf(login.body.accessToken).sub).toBe(created.body.id)
    const refreshed = await api.call<TokenPair>('POST', '/api/auth/refresh', { body: { refreshToken: accepted.body.refreshToken } })
    expect(refreshed.status).toBe(200)

    expect(await memberById(created.body.id)).toMatchObject({ id: created.body.id, isConfirmed: true })
  })

  test('the list tells when a member last began a session: absent until the invitation is accepted, then its time', async () => {
    const member = await invited()
    expect(await memberById(member.id)).not.toHaveProperty('lastLoginAt')
    expect((await acceptInvite({ token: await invitationTokenFor(member.email), password: NEW_PASSWORD })).status).toBe(200)
    expect((await memberById(member.id))?.lastLoginAt).toBe(world.clock.now().toISOString())
  })

  test('an invitation token works once: the second use is 400 on /token, and the password stays the first', async () => {
    const member = await invited()
    const token = await invitationTokenFor(member.email)
    expect((await acceptInvite({ token, password: NEW_PASSWORD })).status).toBe(200)

    const again = await acceptInvite({ token, password: 'an attacker password!' })
    expectBadRequest(again, '/token')
    expect(JSON.stringify(again.body)).not.toContain(member.email)

    expect((await api.call('POST', '/api/auth/login', { body: { email: member.email, password: 'an attacker password!' } })).status).toBe(
      401,
    )
    expect((await api.call('POST', '/api/auth/login', { body: { email: member.email, password: NEW_PASSWORD } })).status).toBe(200)
  })

  test('a password under 12 characters is 400 on /password and does not use the token up', async () => {
    const member = await invited()
    const token = await invitationTokenFor(member.email)
    expectBadRequest(await acceptInvite({ token, password: 'x'.repeat(11) }), '/password')
    expect((await memberById(member.id))?.isConfirmed).toBe(false)
    expect((await acceptInvite({ token, password: 'x'.repeat(12) })).status).toBe(200)
    expect((await memberById(member.id))?.isConfirmed).toBe(true)
  })

  test.each([
    ['an unknown token', { token: 'not-a-real-invitation-token', password: NEW_PASSWORD }, '/token'],
    ['an empty token', { token: '', password: NEW_PASSWORD }, '/token'],
    ['no token', { password: NEW_PASSWORD }, '/token'],
    ['no password', { token: 'whatever-token' }, '/password'],
    ['an unknown property', { token: 'whatever-token', password: NEW_PASSWORD, role: 'org_admin' }, '/role'],
  ])('%s is a 400 naming the field', async (_name, body, field) => {
    expectBadRequest(await acceptInvite(body), field)
  })

  test('needs no access token, and a token in the header does not change whose invitation it is', async () => {
    const member = await invited()
    const token = await invitationTokenFor(member.email)
    const response = await api.call<TokenPair>('POST', '/api/auth/accept-invite', {
      token: tokens.admin,
      body: { token, password: NEW_PASSWORD },
    })
    expect(response.status).toBe(200)
    expect(claimsOf(response.body.accessToken).sub).toBe(member.id)
  })

  test('the link points at appUrl when the invitation names one on an allowed origin', async () => {
    expect(
      (await api.call('PUT', '/api/organizations/settings', { token: tokens.admin, body: { appOrigins: ['https://portal.example.org'] } }))
        .status,
    ).toBe(200)
    const member = await invited({ appUrl: 'https://portal.example.org/' })
    const { link } = invitationIn((await loggedInvitationTo(api, member.email)).text)
    expect(link).toStartWith('https://portal.example.org/accept-invite?token=')
  })

  test('the invitation keeps the invited role, partner and profiles once accepted', async () => {
    const member = await invited({ role: 'volunteer', partnerId: partnerA.id, profiles: ['intake_staff'] })
    const pair = await acceptInvite({ token: await invitationTokenFor(member.email), password: NEW_PASSWORD })
    // A volunteer with intake_staff may create needs for its own partner.
    const need = await api.call('POST', '/api/needs', { token: pair.body.accessToken, body: { partnerId: partnerA.id } })
    expect(need.status).toBe(201)
    expect(await memberById(member.id)).toMatchObject({
      role: 'volunteer',
      partnerId: partnerA.id,
      profiles: ['intake_staff'],
      isConfirmed: true,
    })
  })

  test('an invitation is valid for 7 days and not a moment longer', async () => {
    const first = await invited()
    const second = await invited()
    const [firstToken, secondToken] = [await invitationTokenFor(first.email), await invitationTokenFor(second.email)]
    const sevenDays = 7 * 24 * 3_600_000
    try {
      world.clock.advance(sevenDays - 1000)
      expect((await acceptInvite({ token: firstToken, password: NEW_PASSWORD })).status).toBe(200)
      world.clock.advance(1000)
      expectBadRequest(await acceptInvite({ token: secondToken, password: NEW_PASSWORD }), '/token')
    } finally {
      world.clock.advance(-sevenDays)
    }
    expect((await memberById(second.id))?.isConfirmed).toBe(false)
  })
})

describe('POST /api/members', () => {
  test('answers 201 with the member: no password hash, the partner name beside its id', async () => {
    const email = uniqueEmail('agent')
    const response = await invite({
      email,
      role: 'partner_agent',
      fullName: 'Alex Agent',
      partnerId: partnerA.id,
      phone: '+15551230001',
      profiles: ['pii_reader', 'sms_communicator'],
    })
    expect(response.status).toBe(201)
    expect(response.headers.get('content-type')).toStartWith('application/json')
    expect(Object.keys(response.body).sort()).toEqual([
      'active',
      'email',
      'fullName',
      'id',
      'isConfirmed',
      'partnerId',
      'partnerName',
      'phone',
      'profiles',
      'role',
    ])
    expect(response.body).toMatchObject({
      email,
      role: 'partner_agent',
      fullName: 'Alex Agent',
      partnerId: partnerA.id,
      partnerName: 'Pantry A',
      phone: '+15551230001',
      isConfirmed: false,
      active: true,
    })
    expect([...response.body.profiles!].sort()).toEqual(['pii_reader', 'sms_communicator'])
    expect(response.body.id).toMatch(/^[0-9a-f-]{36}$/)
    const text = JSON.stringify(response.body)
    for (const hidden of ['passwordHash', 'organizationId', 'createdAt', 'token']) expect(text).not.toContain(hidden)
    expect(await memberById(response.body.id)).toEqual(response.body)
  })

  test('absent optional fields are omitted; a staff member has no partner', async () => {
    const response = await invite({ email: uniqueEmail(), role: 'staff' })
    expect(response.status).toBe(201)
    expect(Object.keys(response.body).sort()).toEqual(['active', 'email', 'id', 'isConfirmed', 'profiles', 'role'])
    expect(response.body.profiles).toEqual([])
  })

  test('each of the five roles can be invited (with a partner where the role needs one)', async () => {
    for (const role of ['org_admin', 'staff', 'partner_admin', 'partner_agent', 'volunteer']) {
      const partner = ['org_admin', 'staff'].includes(role) ? {} : { partnerId: partnerB.id }
      const response = await invite({ email: uniqueEmail(role), role, ...partner })
      expect({ role, status: response.status }).toEqual({ role, status: 201 })
      expect(response.body.role).toBe(role)
    }
  })

  test.each([
    ['the profile kiosk_operator', { role: 'staff', profiles: ['kiosk_operator'] }, '/profiles'],
    ['kiosk_operator beside allowed profiles', { role: 'staff', profiles: ['pii_reader', 'kiosk_operator'] }, '/profiles'],
    ['the role kiosk_operator', { role: 'kiosk_operator' }, '/role'],
    ['an unknown role', { role: 'superuser' }, '/role'],
    ['no role', {}, '/role'],
    ['partner_admin without partnerId', { role: 'partner_admin' }, '/partnerId'],
    ['partner_agent without partnerId', { role: 'partner_agent' }, '/partnerId'],
    ['volunteer without partnerId', { role: 'volunteer' }, '/partnerId'],
    ['org_admin with a partnerId', { role: 'org_admin', partnerId: 'A' }, '/partnerId'],
    ['staff with a partnerId', { role: 'staff', partnerId: 'A' }, '/partnerId'],
    ['a malformed partnerId', { role: 'partner_agent', partnerId: 'not-a-uuid' }, '/partnerId'],
    ['an unknown partnerId', { role: 'partner_agent', partnerId: UNKNOWN_ID }, '/partnerId'],
    ['a bad phone', { role: 'staff', phone: '555-123-4567' }, '/phone'],
    ['a phone without its plus', { role: 'staff', phone: '15551234567' }, '/phone'],
    ['a fullName over 200 characters', { role: 'staff', fullName: 'x'.repeat(201) }, '/fullName'],
    ['an empty fullName', { role: 'staff', fullName: '' }, '/fullName'],
    ['an appUrl that is not http(s)', { role: 'staff', appUrl: 'javascript:alert(1)' }, '/appUrl'],
    ['profiles that are not an array', { role: 'staff', profiles: 'pii_reader' }, '/profiles'],
    ['an unknown property', { role: 'staff', isConfirmed: true }, '/isConfirmed'],
    ['a passwordHash', { role: 'staff', passwordHash: 'x' }, '/passwordHash'],
  ])('%s is a 400 naming the field, and nobody is added or invited', async (_name, fields, field) => {
    const email = uniqueEmail('invalid')
    const body = { email, ...fields } as Record<string, unknown>
    if (body.partnerId === 'A') body.partnerId = partnerA.id
    const response = await invite(body)
    expect(response.status).not.toBe(422)
    expectBadRequest(response, field)
    expect((await members()).some((m) => m.email === email)).toBe(false)
  })

  test.each([
    ['no email', undefined],
    ['an email without @', 'not-an-email'],
    ['an email without a domain dot', 'someone@localhost'],
    ['an email with spaces', 'some one@example.org'],
    ['an email over 254 characters', `${'x'.repeat(250)}@example.org`],
    ['an email that is a number', 42],
  ])('%s is a 400 on /email', async (_name, email) => {
    expectBadRequest(await invite({ role: 'staff', ...(email === undefined ? {} : { email }) }), '/email')
  })

  test('an email already in the organization is 409 Conflict, in any case, and sends no second invitation', async () => {
    const email = uniqueEmail('dup')
    await invited({ email })
    await loggedInvitationTo(api, email)
    expectProblem(await invite({ email, role: 'staff' }), 409, 'Conflict')
    expectProblem(await invite({ email: email.toUpperCase(), role: 'volunteer', partnerId: partnerA.id }), 409, 'Conflict')
    // An existing, confirmed member's email too.
    const adminEmail = (await memberById(ids.admin!))!.email
    expectProblem(await invite({ email: adminEmail, role: 'staff' }), 409, 'Conflict')
    expect((await members()).filter((m) => m.email === email)).toHaveLength(1)
    await api.server.container.get(DispatchOutbox).runOnce()
    expect(loggedEmailsTo(api, email)).toHaveLength(1)
  })

  test('two concurrent invitations of one email: exactly one 201 and one 409', async () => {
    const email = uniqueEmail('race')
    const responses = await Promise.all([invite({ email, role: 'staff' }), invite({ email, role: 'staff' })])
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409])
    expectProblem(responses.find((r) => r.status === 409)!, 409, 'Conflict')
    expect((await members()).filter((m) => m.email === email)).toHaveLength(1)
    await loggedInvitationTo(api, email)
    expect(loggedEmailsTo(api, email)).toHaveLength(1)
  })

  test('the same email may belong to another organization', async () => {
    const email = uniqueEmail('shared')
    await invited({ email })
    const response = await invite({ email, role: 'staff' }, tokens.otherAdmin)
    expect(response.status).toBe(201)
    expect(response.body.email).toBe(email)
  })

  test('staff, partner_agent and volunteer may not add members (403), whatever they ask for', async () => {
    for (const token of [tokens.staff, tokens.agentA, tokens.volunteerA]) {
      expectProblem(await invite({ email: uniqueEmail(), role: 'volunteer', partnerId: partnerA.id }, token), 403, 'Forbidden')
      expectProblem(await invite({ email: uniqueEmail(), role: 'staff' }, token), 403, 'Forbidden')
    }
  })

  test('a profile does not let a volunteer add members', async () => {
    const token = await api.tokenFor(world, 'volunteer', {
      partnerId: partnerA.id,
      profiles: ['needs_processor', 'intake_staff', 'sms_communicator', 'email_phone_communicator', 'pii_reader', 'duplicate_resolver'],
    })
    expectProblem(await invite({ email: uniqueEmail(), role: 'volunteer', partnerId: partnerA.id }, token), 403, 'Forbidden')
  })

  test('without a token it is 401, before the body is looked at', async () => {
    expectProblem(await api.call('POST', '/api/members', { body: { email: uniqueEmail(), role: 'staff' } }), 401, 'Unauthorized')
    expectProblem(await api.call('POST', '/api/members', { body: { role: 'kiosk_operator' } }), 401, 'Unauthorized')
  })
})

describe('a partner_admin manages the agents and volunteers of its own partner only', () => {
  test('adds a partner_agent or volunteer of its own partner (201)', async () => {
    for (const role of ['partner_agent', 'volunteer']) {
      const response = await invite({ email: uniqueEmail(role), role, partnerId: partnerA.id }, tokens.partnerAdminA)
      expect(response.status).toBe(201)
      expect(response.body).toMatchObject({ role, partnerId: partnerA.id, partnerName: 'Pantry A', isConfirmed: false })
    }
  })

  test.each([
    ['a staff member', { role: 'staff' }],
    ['an org_admin', { role: 'org_admin' }],
    ['another partner_admin of its partner', { role: 'partner_admin', partnerId: 'A' }],
    ['an agent of another partner', { role: 'partner_agent', partnerId: 'B' }],
    ['a volunteer of another partner', { role: 'volunteer', partnerId: 'B' }],
  ])('may not add %s (403), and nobody is added', async (_name, fields) => {
    const email = uniqueEmail('refused')
    const body: Record<string, unknown> = { email, ...fields }
    if (body.partnerId) body.partnerId = body.partnerId === 'A' ? partnerA.id : partnerB.id
    expectProblem(await invite(body, tokens.partnerAdminA), 403, 'Forbidden')
    expect((await members()).some((m) => m.email === email)).toBe(false)
  })

  test("GET /api/members shows only its partner's members", async () => {
    const listed = await members(tokens.partnerAdminA)
    expect(listed.length).toBeGreaterThanOrEqual(3)
    expect(listed.every((m) => m.partnerId === partnerA.id)).toBe(true)
    const listedIds = listed.map((m) => m.id)
    for (const mine of [ids.partnerAdminA, ids.agentA, ids.volunteerA]) expect(listedIds).toContain(mine!)
    for (const notMine of [ids.admin, ids.staff, ids.agentB]) expect(listedIds).not.toContain(notMine!)
  })

  test('changes an agent of its partner into a volunteer (200)', async () => {
    const agent = await invited({ role: 'partner_agent', partnerId: partnerA.id })
    const response = await update(agent.id, { role: 'volunteer' }, tokens.partnerAdminA)
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ id: agent.id, role: 'volunteer', partnerId: partnerA.id, partnerName: 'Pantry A' })
  })

  test('may not move a member out of its reach or change one outside it (403), and nothing changes', async () => {
    const agent = await invited({ role: 'partner_agent', partnerId: partnerA.id })
    const cases: Array<[string, unknown]> = [
      [agent.id, { role: 'partner_agent', partnerId: partnerB.id }],
      [agent.id, { role: 'partner_admin' }],
      [agent.id, { role: 'staff' }],
      [ids.partnerAdminA!, { role: 'partner_agent' }],
      [ids.agentB!, { role: 'volunteer' }],
      [ids.agentB!, { role: 'partner_agent', partnerId: partnerA.id }],
      [ids.staff!, { role: 'staff', phone: '+15550000000' }],
    ]
    for (const [id, body] of cases) expectProblem(await update(id, body, tokens.partnerAdminA), 403, 'Forbidden')
    expect(await memberById(agent.id)).toMatchObject({ role: 'partner_agent', partnerId: partnerA.id })
    expect(await memberById(ids.agentB!)).toMatchObject({ role: 'partner_agent', partnerId: partnerB.id })
  })
})

describe('a member grants only the profiles it holds itself (docs/api.md "Permissions")', () => {
  test('a partner_admin may not invite or update an agent with a profile it lacks (403, nothing changes); one holding it may', async () => {
    const email = uniqueEmail('escalated')
    for (const profile of ['duplicate_resolver', 'pii_reader', 'sms_communicator']) {
      const refused = expectProblem(
        await invite({ email, role: 'partner_agent', partnerId: partnerA.id, profiles: [profile] }, tokens.partnerAdminA),
        403,
        'Forbidden',
      )
      expect(refused.detail).toContain(profile)
    }
    expect((await members()).some((m) => m.email === email)).toBe(false)

    const agent = await invited({ role: 'partner_agent', partnerId: partnerA.id })
    expectProblem(
      await update(agent.id, { role: 'partner_agent', profiles: ['duplicate_resolver'] }, tokens.partnerAdminA),
      403,
      'Forbidden',
    )
    expect((await memberById(agent.id))!.profiles ?? []).toEqual([])

    const holder = await api.tokenFor(world, 'partner_admin', { partnerId: partnerA.id, profiles: ['pii_reader'] })
    expect((await update(agent.id, { role: 'partner_agent', profiles: ['pii_reader'] }, holder)).body.profiles).toEqual(['pii_reader'])
    expect((await invite({ email, role: 'volunteer', partnerId: partnerA.id, profiles: ['pii_reader'] }, holder)).status).toBe(201)
  })

  test('an org_admin grants any profile', async () => {
    const response = await invite({ email: uniqueEmail(), role: 'staff', profiles: ['duplicate_resolver', 'sms_communicator'] })
    expect(response.status).toBe(201)
    expect(response.body.profiles).toEqual(['duplicate_resolver', 'sms_communicator'])
  })
})

describe('GET /api/members', () => {
  test('lists the whole organization for org_admin and staff, newest first, paged', async () => {
    for (const token of [tokens.admin, tokens.staff]) {
      const listed = await members(token)
      const listedIds = listed.map((m) => m.id)
      for (const id of [ids.admin, ids.staff, ids.agentA, ids.agentB]) expect(listedIds).toContain(id!)
      for (const m of listed) expect(m).not.toHaveProperty('passwordHash')
    }
    const page = await api.call<MemberJson[]>('GET', '/api/members?limit=2&page=2', { token: tokens.admin })
    expect(page.status).toBe(200)
    expect(page.body).toHaveLength(2)
    expect(Number(page.headers.get('x-total-count'))).toBeGreaterThan(4)
    expect(page.headers.get('link')).toContain('rel="next"')
  })

  test('partner_agent and volunteer may not list members (403)', async () => {
    for (const token of [tokens.agentA, tokens.volunteerA]) {
      expectProblem(await api.call('GET', '/api/members', { token }), 403, 'Forbidden')
    }
  })

  test('a bad page or limit is 400', async () => {
    // Out-of-range page and limit are 400 whose error path is not 'query/…' (see the report); a wrong type is.
    expectBadRequest(await api.call('GET', '/api/members?limit=101', { token: tokens.admin }))
    expectBadRequest(await api.call('GET', '/api/members?page=0', { token: tokens.admin }))
    expectBadRequest(await api.call('GET', '/api/members?limit=ten', { token: tokens.admin }), 'query/limit')
    expectBadRequest(await api.call('GET', '/api/members?role=staff', { token: tokens.admin }), 'query/role')
  })

  test('never shows members of another organization', async () => {
    const mine = await invited()
    const theirs = await members(tokens.otherAdmin)
    const theirIds = theirs.map((m) => m.id)
    for (const id of [mine.id, ids.admin, ids.staff, ids.agentA]) expect(theirIds).not.toContain(id!)
    expect(theirIds).toContain(ids.otherAdmin!)
    expect(theirs.some((m) => m.partnerId === partnerA.id || m.partnerId === partnerB.id)).toBe(false)
  })
})

describe('PUT /api/members/{id}', () => {
  test('changes role, partner and profiles; a partner role keeps its partner when partnerId is left out', async () => {
    const member = await invited({ role: 'staff', profiles: ['pii_reader'] })
    const toAgent = await update(member.id, { role: 'partner_agent', partnerId: partnerB.id, profiles: ['sms_communicator'] })
    expect(toAgent.status).toBe(200)
    expect(toAgent.body).toMatchObject({
      id: member.id,
      email: member.email,
      role: 'partner_agent',
      partnerId: partnerB.id,
      partnerName: 'Pantry B',
      profiles: ['sms_communicator'],
    })
    const toVolunteer = await update(member.id, { role: 'volunteer' })
    expect(toVolunteer.body).toMatchObject({ role: 'volunteer', partnerId: partnerB.id, profiles: ['sms_communicator'] })
    const toStaff = await update(member.id, { role: 'staff', profiles: [] })
    expect(toStaff.status).toBe(200)
    expect(toStaff.body).not.toHaveProperty('partnerId')
    expect(toStaff.body).not.toHaveProperty('partnerName')
    expect(toStaff.body.profiles).toEqual([])
    expect(await memberById(member.id)).toEqual(toStaff.body)
  })

  test('phone: left out keeps it, a new one replaces it, null clears it', async () => {
    const member = await invited({ phone: '+15551110000' })
    expect((await update(member.id, { role: 'staff' })).body.phone).toBe('+15551110000')
    expect((await update(member.id, { role: 'staff', phone: '+15552220000' })).body.phone).toBe('+15552220000')
    const cleared = await update(member.id, { role: 'staff', phone: null })
    expect(cleared.status).toBe(200)
    expect(cleared.body).not.toHaveProperty('phone')
    expect(await memberById(member.id)).not.toHaveProperty('phone')
  })

  test('the role is read on every request: a promotion and a demotion take effect at once', async () => {
    const staffId = ids.staff!
    expectProblem(await invite({ email: uniqueEmail(), role: 'staff' }, tokens.staff), 403, 'Forbidden')
    expect((await update(staffId, { role: 'org_admin' })).status).toBe(200)
    expect((await invite({ email: uniqueEmail(), role: 'staff' }, tokens.staff)).status).toBe(201)
    expect((await update(staffId, { role: 'staff' })).status).toBe(200)
    expectProblem(await invite({ email: uniqueEmail(), role: 'staff' }, tokens.staff), 403, 'Forbidden')
  })

  test('demoting the last confirmed org_admin is 409 Conflict; with a second confirmed one it is allowed', async () => {
    const lonely = await world.otherOrganization()
    const admin = (await lonely.repositories.members.findById(lonely.organizationId, lonely.admin.memberId))!
    const organization = (await lonely.repositories.organizations.findById(lonely.organizationId))!
    const token = await api.login(admin.email, organization.slug)
    const demote = { role: 'staff' }
    expectProblem(await update(admin.id, demote, token), 409, 'Conflict')
    expectProblem(await update(admin.id, { role: 'partner_admin', partnerId: lonely.defaultPartner.id }, token), 409, 'Conflict')
    expect((await members(token)).find((m) => m.id === admin.id)?.role).toBe('org_admin')
    // Keeping the role (changing the phone) is no demotion.
    expect((await update(admin.id, { role: 'org_admin', phone: '+15553330000' }, token)).status).toBe(200)

    const second = await invite({ email: uniqueEmail('second-admin'), role: 'org_admin' }, token)
    expect(second.status).toBe(201)
    // Only confirmed org_admins count: an invitation nobody accepted yet could leave no one to run the organization.
    expectProblem(await update(admin.id, demote, token), 409, 'Conflict')
    expect((await members(token)).find((m) => m.id === admin.id)?.role).toBe('org_admin')
    const accepted = await acceptInvite({ token: await invitationTokenFor(second.body.email), password: NEW_PASSWORD })
    expect(accepted.status).toBe(200)
    // With a second, confirmed org_admin the first may step down.
    const demoted = await update(admin.id, demote, token)
    expect(demoted.status).toBe(200)
    expect(demoted.body.role).toBe('staff')
    expectProblem(await update(second.body.id, demote, token), 403, 'Forbidden')
  })

  test.each([
    ['the role kiosk_operator', { role: 'kiosk_operator' }, '/role'],
    ['the profile kiosk_operator', { role: 'staff', profiles: ['kiosk_operator'] }, '/profiles'],
    ['staff with a partnerId', { role: 'staff', partnerId: 'A' }, '/partnerId'],
    ['a partner role without any partner', { role: 'partner_agent' }, '/partnerId'],
    ['an unknown partnerId', { role: 'partner_agent', partnerId: UNKNOWN_ID }, '/partnerId'],
    ['a bad phone', { role: 'staff', phone: '0123' }, '/phone'],
    ['an email (not changeable here)', { role: 'staff', email: 'new@example.org' }, '/email'],
    ['isConfirmed (not changeable here)', { role: 'staff', isConfirmed: true }, '/isConfirmed'],
  ])('%s is a 400 naming the field, and nothing changes', async (_name, fields, field) => {
    const member = await invited({ role: 'staff', phone: '+15554440000' })
    const body = { ...fields } as Record<string, unknown>
    if (body.partnerId === 'A') body.partnerId = partnerA.id
    expectBadRequest(await update(member.id, body), field)
    expect(await memberById(member.id)).toEqual(member)
  })

  test('a PUT is a partial update: what is left out stays, null clears the phone', async () => {
    const member = await invited({ role: 'partner_agent', partnerId: partnerA.id, phone: '+15554440001', profiles: ['sms_communicator'] })
    const phoneOnly = await update(member.id, { phone: '+15554440002' })
    expect(phoneOnly.status).toBe(200)
    expect(phoneOnly.body).toEqual({ ...member, phone: '+15554440002' })
    const profilesOnly = await update(member.id, { profiles: [] })
    expect(profilesOnly.body).toEqual({ ...member, phone: '+15554440002', profiles: [] })
    const { phone: _cleared, ...withoutPhone } = profilesOnly.body
    expect((await update(member.id, { phone: null })).body).toEqual(withoutPhone)
    expect((await update(member.id, {})).body).toEqual(withoutPhone)
    expect(await memberById(member.id)).toEqual(withoutPhone)
  })

  test("a partnerId of another organization's partner is 400, like an unknown one", async () => {
    const member = await invited()
    const theirs = await update(member.id, { role: 'partner_agent', partnerId: other.defaultPartner.id })
    const unknown = await update(member.id, { role: 'partner_agent', partnerId: UNKNOWN_ID })
    expectBadRequest(theirs, '/partnerId')
    expect(theirs.body).toEqual(unknown.body)
    const invitedThere = await invite({ email: uniqueEmail(), role: 'partner_agent', partnerId: other.defaultPartner.id })
    expectBadRequest(invitedThere, '/partnerId')
  })

  test('a malformed id is 400; an unknown id is 404 Member not found', async () => {
    expectBadRequest(await update('not-a-uuid', { role: 'staff' }), 'params/id')
    expectProblem(await update(UNKNOWN_ID, { role: 'staff' }), 404, 'Not found')
  })

  test("another organization's member is 404, exactly as an unknown id, and stays as it was", async () => {
    const before = await memberById(ids.otherAdmin!, tokens.otherAdmin)
    const response = await update(ids.otherAdmin!, { role: 'staff', phone: '+15559990000' })
    expectProblem(response, 404, 'Not found')
    expect(response.body).toEqual((await update(UNKNOWN_ID, { role: 'staff', phone: '+15559990000' })).body)
    expect(await memberById(ids.otherAdmin!, tokens.otherAdmin)).toEqual(before!)
    // And the other way round.
    expectProblem(await update(ids.agentA!, { role: 'volunteer' }, tokens.otherAdmin), 404, 'Not found')
    expect((await memberById(ids.agentA!))?.role).toBe('partner_agent')
  })

  test('staff, partner_agent and volunteer may not change members (403)', async () => {
    for (const token of [tokens.staff, tokens.agentA, tokens.volunteerA]) {
      expectProblem(await update(ids.agentA!, { role: 'volunteer' }, token), 403, 'Forbidden')
      // Not even themselves.
      expectProblem(await update(claimsOf(token!).sub, { role: 'org_admin' }, token), 403, 'Forbidden')
    }
    expect((await memberById(ids.agentA!))?.role).toBe('partner_agent')
  })

  test('without a token it is 401, before the id and body are looked at', async () => {
    expectProblem(await api.call('PUT', `/api/members/${ids.agentA}`, { body: { role: 'org_admin' } }), 401, 'Unauthorized')
    expectProblem(await api.call('PUT', '/api/members/xyz', { body: { role: 'kiosk_operator' } }), 401, 'Unauthorized')
  })
})

describe('GET and PUT /api/profile', () => {
  test('every role reads its own profile: its role, partner, profiles and what they let it do, never its password hash', async () => {
    for (const name of ['admin', 'staff', 'partnerAdminA', 'agentA', 'volunteerA', 'otherAdmin']) {
      const response = await api.call('GET', '/api/profile', { token: tokens[name] })
      expect(response.status).toBe(200)
      expect(response.body.id).toBe(ids[name])
      expect(response.body.email).toMatch(/@example\.org$/)
      const member = (await memberById(ids[name]!, name === 'otherAdmin' ? tokens.otherAdmin : tokens.admin))!
      expect(response.body).toMatchObject({ role: member.role, profiles: member.profiles ?? [] })
      expect(response.body.partnerId).toBe(member.partnerId)
      for (const hidden of ['passwordHash', 'organizationId']) expect(response.body).not.toHaveProperty(hidden)
    }
  })

  test('the permissions answered are those the server applies: an agent may update needs but not merge constituents; a profile adds its actions', async () => {
    const agent = (await api.call('GET', '/api/profile', { token: tokens.agentA })).body
    expect(agent.permissions).toContain('needs:update')
    expect(agent.permissions).not.toContain('constituents:merge')
    expect(agent.permissions).not.toContain('needs:send-sms')
    const merge = await api.call('POST', '/api/constituents/merge', {
      token: tokens.agentA,
      body: { sourceConstituentId: UNKNOWN_ID, targetConstituentId: crypto.randomUUID() },
    })
    expect(merge.status).toBe(403)
    expect((await api.call('GET', '/api/profile', { token: tokens.admin })).body.permissions).toEqual(
      expect.arrayContaining(['constituents:merge', 'needs:send-sms', 'members:list']),
    )
    const texter = await api.tokenFor(world, 'partner_agent', { partnerId: partnerA.id, profiles: ['sms_communicator'] })
    expect((await api.call('GET', '/api/profile', { token: texter })).body.permissions).toContain('needs:send-sms')
  })

  test('every role updates its own name and phone; a field left out keeps its value, null clears the phone', async () => {
    for (const name of ['admin', 'staff', 'partnerAdminA', 'agentA', 'volunteerA']) {
      const token = tokens[name]!
      const email = (await api.call('GET', '/api/profile', { token })).body.email
      const set = await api.call('PUT', '/api/profile', { token, body: { fullName: `  ${name} Person `, phone: '+15557770000' } })
      expect(set.status).toBe(200)
      const { role, partnerId, profiles, permissions } = (await api.call('GET', '/api/profile', { token })).body
      expect(set.body).toMatchObject({
        id: ids[name],
        email,
        fullName: `${name} Person`,
        phone: '+15557770000',
        language: 'en',
        role,
        profiles,
        permissions,
      })
      expect(set.body.partnerId).toBe(partnerId)
      expect((await api.call('GET', '/api/profile', { token })).body).toEqual(set.body)
      const kept = await api.call('PUT', '/api/profile', { token, body: { fullName: `${name} Renamed` } })
      expect(kept.body).toEqual({ ...set.body, fullName: `${name} Renamed` })
      const phoneOnly = await api.call('PUT', '/api/profile', { token, body: { phone: '+15557770001' } })
      expect(phoneOnly.body).toEqual({ ...kept.body, phone: '+15557770001' })
      const cleared = await api.call('PUT', '/api/profile', { token, body: { phone: null } })
      expect(cleared.status).toBe(200)
      expect(cleared.body).toEqual({
        id: ids[name],
        email,
        fullName: `${name} Renamed`,
        language: set.body.language,
        notifications: set.body.notifications,
        role,
        ...(partnerId ? { partnerId } : {}),
        profiles,
        permissions,
      })
    }
    // The member record shows the same.
    expect(await memberById(ids.agentA!)).toMatchObject({ fullName: 'agentA Renamed', role: 'partner_agent' })
    expect(await memberById(ids.agentA!)).not.toHaveProperty('phone')
  })

  test.each([
    ['an empty fullName', { fullName: '' }, '/fullName'],
    ['a blank fullName', { fullName: '   ' }, '/fullName'],
    ['a fullName over 200 characters', { fullName: 'x'.repeat(201) }, '/fullName'],
    ['a phone that is not E.164', { fullName: 'Pat', phone: '(555) 123-4567' }, '/phone'],
    ['a phone as a number', { fullName: 'Pat', phone: 15551234567 }, '/phone'],
    ['a role (not changeable here)', { fullName: 'Pat', role: 'org_admin' }, '/role'],
    ['an email (not changeable here)', { fullName: 'Pat', email: 'pat@example.org' }, '/email'],
  ])('%s is a 400 naming the field, and the profile stays', async (_name, body, field) => {
    const before = (await api.call('GET', '/api/profile', { token: tokens.volunteerA })).body
    const response = await api.call('PUT', '/api/profile', { token: tokens.volunteerA, body })
    expect(response.status).not.toBe(422)
    expectBadRequest(response, field)
    expect((await api.call('GET', '/api/profile', { token: tokens.volunteerA })).body).toEqual(before)
    expect((await memberById(ids.volunteerA!))?.role).toBe('volunteer')
  })

  test('is always the caller’s own: another organization’s member sees and changes only itself', async () => {
    const mine = (await api.call('GET', '/api/profile', { token: tokens.admin })).body
    const theirs = await api.call('PUT', '/api/profile', { token: tokens.otherAdmin, body: { fullName: 'Other Admin' } })
    expect(theirs.status).toBe(200)
    expect(theirs.body.id).toBe(ids.otherAdmin)
    expect((await api.call('GET', '/api/profile', { token: tokens.admin })).body).toEqual(mine)
  })

  test('without a token both are 401', async () => {
    expectProblem(await api.call('GET', '/api/profile'), 401, 'Unauthorized')
    expectProblem(await api.call('PUT', '/api/profile', { body: { fullName: 'Nobody' } }), 401, 'Unauthorized')
  })
})

describe('members never cross organizations', () => {
  test('an invitation token of one organization logs in there only', async () => {
    const theirs = await invited({}, tokens.otherAdmin)
    const email = await loggedInvitationTo(api, theirs.email)
    expect(email.organizationId).toBe(other.organizationId)
    const pair = await acceptInvite({ token: invitationIn(email.text).token, password: NEW_PASSWORD })
    expect(claimsOf(pair.body.accessToken).org).toBe(other.organizationId)
    expect(await memberById(theirs.id)).toBeUndefined()
    expect((await memberById(theirs.id, tokens.otherAdmin))?.isConfirmed).toBe(true)
  })
})

describe('POST /api/members/{id}/invitation', () => {
  const resend = (id: string, token = tokens.admin, body?: unknown) =>
    api.call<MemberJson>('POST', `/api/members/${id}/invitation`, { token, ...(body === undefined ? {} : { body }) })

  test('sends a new invitation to a member who has not accepted one; its link works', async () => {
    const email = uniqueEmail('resend')
    const invited = await invite({ email, role: 'staff' })
    await loggedInvitationTo(api, email)
    const again = await resend(invited.body.id)
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ id: invited.body.id, email, isConfirmed: false })
    const second = await deliverUntil(api, () => loggedEmailsTo(api, email)[1], 'the second invitation')
    const { token } = invitationIn(second.text)
    expect(token).not.toBe(invitationIn(loggedEmailsTo(api, email)[0]!.text).token)
    expect((await acceptInvite({ token, password: NEW_PASSWORD })).status).toBe(200)
  })

  test('a member who can already log in is 409; an unknown or foreign id 404; staff 403; no token 401', async () => {
    const accepted = await resend(ids.staff!)
    expectProblem(accepted, 409, 'Conflict')
    expectProblem(await resend(UNKNOWN_ID), 404, 'Not found')
    const invited = await invite({ email: uniqueEmail('foreign'), role: 'staff' })
    expectProblem(await resend(invited.body.id, tokens.otherAdmin), 404, 'Not found')
    expectProblem(await resend(invited.body.id, tokens.staff), 403, 'Forbidden')
    expect((await api.call('POST', `/api/members/${invited.body.id}/invitation`)).status).toBe(401)
  })

  test('appUrl must be an http(s) URL (400); unknown properties are 400', async () => {
    const invited = await invite({ email: uniqueEmail('appurl'), role: 'staff' })
    expectBadRequest(await resend(invited.body.id, tokens.admin, { appUrl: 'javascript:alert(1)' }))
    expectBadRequest(await resend(invited.body.id, tokens.admin, { other: 1 }))
  })
})
