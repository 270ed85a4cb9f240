import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { TEST_PASSWORD } from '../../support/world'
import { api, login, newMember, openAuthServer } from './auth-support'
import { claimsOf, expectBadRequest, expectProblem } from './helpers'

// docs/api/access.md "Tokens" (logging in, and the limit on failed logins) over real HTTP; docs/api/conventions.md "Errors"
// for the error answers.
openAuthServer()

describe('POST /api/auth/login', () => {
  test('answers 200 with a Bearer pair whose access token is an HS256 JWT for 900 s', async () => {
    const { actor, email } = await newMember()
    const response = await login({ email, password: TEST_PASSWORD })

    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('application/json')
    expect(Object.keys(response.body).sort()).toEqual(['accessToken', 'expiresIn', 'refreshToken', 'tokenType'])
    expect(response.body.tokenType).toBe('Bearer')
    expect(response.body.expiresIn).toBe(900)
    expect(response.body.refreshToken.length).toBeGreaterThanOrEqual(32)
    const header = JSON.parse(Buffer.from(response.body.accessToken.split('.')[0]!, 'base64url').toString())
    expect(header.alg).toBe('HS256')
    const claims = claimsOf(response.body.accessToken)
    expect(claims).toMatchObject({ sub: actor.memberId, org: actor.organizationId })
    expect(claims.exp - claims.iat).toBe(900)
    expect(typeof claims.jti).toBe('string')

    const partners = await api.call('GET', '/api/partners', { token: response.body.accessToken })
    expect(partners.status).toBe(200)
  })

  test('matches the email whatever its case and surrounding spaces', async () => {
    const { email } = await newMember()
    const response = await login({ email: `  ${email.toUpperCase()} `, password: TEST_PASSWORD })
    expect(response.status).toBe(200)
  })

  test('a wrong password and an unknown email get the same 401', async () => {
    const { email } = await newMember()
    const wrongPassword = await login({ email, password: 'not the right password' })
    const unknownEmail = await login({ email: `nobody-${randomUUID()}@example.org`, password: TEST_PASSWORD })

    const a = expectProblem(wrongPassword, 401, 'Unauthorized')
    const b = expectProblem(unknownEmail, 401, 'Unauthorized')
    expect(a).toEqual(b)
  })

  test('an unconfirmed member and a member without a password cannot log in', async () => {
    const unconfirmed = await newMember(api.world, 'staff', { isConfirmed: false })
    expectProblem(await login({ email: unconfirmed.email, password: TEST_PASSWORD }), 401, 'Unauthorized')

    const noPassword = await api.world.member('staff')
    const member = await api.world.repositories.members.findById(noPassword.organizationId, noPassword.memberId)
    expectProblem(await login({ email: member!.email, password: TEST_PASSWORD }), 401, 'Unauthorized')
  })

  test('an email in several organizations needs organizationSlug, which picks the organization', async () => {
    const other = await api.world.otherOrganization()
    const email = `shared-${randomUUID().slice(0, 8)}@example.org`
    const here = await newMember(api.world, 'staff', { email })
    const there = await newMember(other, 'staff', { email })

    const ambiguous = await login({ email, password: TEST_PASSWORD })
    expectBadRequest(ambiguous, '/organizationSlug')

    const picked = await login({ email, password: TEST_PASSWORD, organizationSlug: there.slug })
    expect(picked.status).toBe(200)
    expect(claimsOf(picked.body.accessToken).org).toBe(other.organizationId)
    const pickedHere = await login({ email, password: TEST_PASSWORD, organizationSlug: here.slug })
    expect(claimsOf(pickedHere.body.accessToken).org).toBe(api.world.organizationId)

    expectProblem(await login({ email, password: TEST_PASSWORD, organizationSlug: 'no-such-org' }), 401, 'Unauthorized')
  })

  test.each([
    ['a missing password', { email: 'a@example.org' }, '/password'],
    ['a password of the wrong type', { email: 'a@example.org', password: 123456789012 }, '/password'],
    ['an unknown property', { email: 'a@example.org', password: TEST_PASSWORD, remember: true }, '/remember'],
    ['an empty email', { email: '', password: TEST_PASSWORD }, '/email'],
    ['an email over 254 characters', { email: `${'a'.repeat(250)}@example.org`, password: TEST_PASSWORD }, '/email'],
  ])('%s is a 400', async (_label, body, field) => {
    expectBadRequest(await login(body), field)
  })

  test('malformed JSON is a 400, never a 422', async () => {
    const response = await api.call('POST', '/api/auth/login', {
      raw: '{"email": "a@example.org", ',
      headers: { 'content-type': 'application/json' },
    })
    expectBadRequest(response)
  })
})

// Last: it moves the server's clock past the 15-minute window.
describe('login throttling', () => {
  test('after 10 failures for one email the 11th attempt is 429 with Retry-After, even with the right password', async () => {
    const { email } = await newMember()
    const bystander = await newMember()
    for (let i = 0; i < 10; i++) {
      expectProblem(await login({ email, password: `wrong password ${i}` }), 401, 'Unauthorized')
    }

    const limited = await login({ email, password: TEST_PASSWORD })
    expectProblem(limited, 429, 'Too many requests')
    const retryAfter = Number(limited.headers.get('retry-after'))
    expect(Number.isInteger(retryAfter)).toBe(true)
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(15 * 60)
    // The count is per email: someone else logs in as usual, even from the same address.
    expect((await login({ email: bystander.email, password: TEST_PASSWORD })).status).toBe(200)
    // Another case of the same email is the same email.
    expect((await login({ email: email.toUpperCase(), password: TEST_PASSWORD })).status).toBe(429)

    api.world.clock.advance(15 * 60_000 + 1000)
    expect((await login({ email, password: TEST_PASSWORD })).status).toBe(200)
  })
})
