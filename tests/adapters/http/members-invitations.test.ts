import { describe, expect, test } from 'bun:test'
import { claimsOf, deliverUntil, expectBadRequest, expectProblem, invitationIn, fallbackEmailsTo, fallbackInvitationTo } from './helpers'
import { UNKNOWN_ID } from './helpers'
import { api, ids, openMembersServer, other, partnerA, tokens, world } from './members-support'
import { acceptInvite, BASE_URL, invitationTokenFor, invite, invited, type MemberJson, memberById, NEW_PASSWORD } from './members-support'
import { type TokenPair, uniqueEmail } from './members-support'

// docs/api/access.md "Tokens" (accept-invite) and "Members and invitations": from an invitation to a first login,
// over real HTTP. An invitation token is a way in without a password, so it must work once, for its own
// organization, for seven days, and give the member exactly what it was invited as.
openMembersServer()

describe('invite → accept-invite → login', () => {
  test('the whole path works end to end, and the member ends up confirmed', async () => {
    const created = await invite({ email: 'New.Person@Example.ORG', role: 'staff', fullName: 'New Person' })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ email: 'new.person@example.org', role: 'staff', fullName: 'New Person', isConfirmed: false })

    // The invitation went through the outbox to the fallback, with a link to PUBLIC_BASE_URL.
    const email = await fallbackInvitationTo(api, 'new.person@example.org')
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
    const { link } = invitationIn((await fallbackInvitationTo(api, member.email)).text)
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

describe('members never cross organizations', () => {
  test('an invitation token of one organization logs in there only', async () => {
    const theirs = await invited({}, tokens.otherAdmin)
    const email = await fallbackInvitationTo(api, theirs.email)
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
    await fallbackInvitationTo(api, email)
    const again = await resend(invited.body.id)
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ id: invited.body.id, email, isConfirmed: false })
    const second = await deliverUntil(api, () => fallbackEmailsTo(api, email)[1], 'the second invitation')
    const { token } = invitationIn(second.text)
    expect(token).not.toBe(invitationIn(fallbackEmailsTo(api, email)[0]!.text).token)
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
