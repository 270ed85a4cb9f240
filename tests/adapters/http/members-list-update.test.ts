import { describe, expect, test } from 'bun:test'
import { claimsOf, expectBadRequest, expectProblem, UNKNOWN_ID } from './helpers'
import { api, ids, openMembersServer, other, partnerA, partnerB, tokens, world } from './members-support'
import { acceptInvite, invitationTokenFor, invite, invited, type MemberJson, memberById, members, NEW_PASSWORD } from './members-support'
import { uniqueEmail, update } from './members-support'

// docs/api/access.md "Members and invitations" and "Permissions": listing members and changing their role, partner,
// profiles and phone, over real HTTP. A role change takes effect at once, and an organization always keeps
// a confirmed org_admin.
openMembersServer()

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
    ['a malformed email', { role: 'staff', email: 'not an email' }, '/email'],
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
