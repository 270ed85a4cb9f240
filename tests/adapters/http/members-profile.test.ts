import { describe, expect, test } from 'bun:test'
import { expectBadRequest, expectProblem, UNKNOWN_ID } from './helpers'
import { api, ids, memberById, openMembersServer, partnerA, tokens, world } from './members-support'

// docs/api/access.md "Members and invitations" and "Permissions": a member's own profile, over real HTTP. It is
// where the console learns what the member may do, so the permissions it answers are those the server applies.
openMembersServer()

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
    ['a phone of seven digits, no area code', { fullName: 'Pat', phone: '555-4567' }, '/phone'],
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
