import { describe, expect, test } from 'bun:test'
import { DispatchOutbox } from '../../../src/application/messaging/dispatch-outbox'
import { expectBadRequest, expectProblem, fallbackEmailsTo, fallbackInvitationTo, UNKNOWN_ID } from './helpers'
import { api, ids, openMembersServer, partnerA, partnerB, tokens, world } from './members-support'
import { invite, invited, memberById, members, uniqueEmail, update } from './members-support'

// docs/api/access.md "Members and invitations" and "Permissions": adding members, over real HTTP. Who may add
// whom decides who can give themselves more rights: a partner_admin stays within its partner, and no one
// grants a profile it does not hold.
openMembersServer()

describe('POST /api/members', () => {
  test('answers 201 with the member: no password hash, the partner name beside its id', async () => {
    const email = uniqueEmail('agent')
    const response = await invite({
      email,
      role: 'partner_agent',
      fullName: 'Alex Agent',
      partnerId: partnerA.id,
      // A national number of the organization's country, kept in E.164.
      phone: '(555) 123-0001',
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
    ['a bad phone', { role: 'staff', phone: '555-1234' }, '/phone'],
    ['a phone with letters', { role: 'staff', phone: '1-800-FLOWERS' }, '/phone'],
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
    await fallbackInvitationTo(api, email)
    expectProblem(await invite({ email, role: 'staff' }), 409, 'Conflict')
    expectProblem(await invite({ email: email.toUpperCase(), role: 'volunteer', partnerId: partnerA.id }), 409, 'Conflict')
    // An existing, confirmed member's email too.
    const adminEmail = (await memberById(ids.admin!))!.email
    expectProblem(await invite({ email: adminEmail, role: 'staff' }), 409, 'Conflict')
    expect((await members()).filter((m) => m.email === email)).toHaveLength(1)
    await api.server.container.get(DispatchOutbox).runOnce()
    expect(fallbackEmailsTo(api, email)).toHaveLength(1)
  })

  test('two concurrent invitations of one email: exactly one 201 and one 409', async () => {
    const email = uniqueEmail('race')
    const responses = await Promise.all([invite({ email, role: 'staff' }), invite({ email, role: 'staff' })])
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409])
    expectProblem(responses.find((r) => r.status === 409)!, 409, 'Conflict')
    expect((await members()).filter((m) => m.email === email)).toHaveLength(1)
    await fallbackInvitationTo(api, email)
    expect(fallbackEmailsTo(api, email)).toHaveLength(1)
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

describe('a member grants only the profiles it holds itself (docs/api/access.md "Permissions")', () => {
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
