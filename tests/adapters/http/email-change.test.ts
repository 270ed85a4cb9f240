import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import { TEST_PASSWORD } from '../../support/world'
import { claimsOf, deliverUntil, expectBadRequest, expectProblem, fallbackEmailsTo, getPage, postForm } from './helpers'

// docs/api/access.md "Changing an email": over real HTTP, the link read from the mail the fallback was handed.
const BASE_URL = 'https://app.example.test'

let api: TestServer
beforeAll(async () => {
  api = await startTestServer({ PUBLIC_BASE_URL: BASE_URL })
})
afterAll(() => api.stop())

const unique = (label: string) => `${label}-${crypto.randomUUID().slice(0, 8)}@example.org`

async function aStaffMember(): Promise<{ token: string; id: string; email: string }> {
  const token = await api.tokenFor(api.world, 'staff')
  const profile = await api.call<{ id: string; email: string }>('GET', '/api/profile', { token })
  return { token, ...profile.body }
}

/** The link of the newest confirmation mailed to `to`. */
async function confirmationLinkTo(to: string): Promise<URL> {
  const message = await deliverUntil(
    api,
    () =>
      fallbackEmailsTo(api, to)
        .filter((m) => m.template === 'email_change')
        .at(-1),
    `the confirmation to ${to}`,
  )
  return new URL(/https?:\/\/\S+\/confirm-email\?token=\S+/.exec(message.text)![0])
}

const confirm = (token: string) => postForm(api, '/confirm-email', { token })

describe('POST /api/profile/email and the /confirm-email page', () => {
  test('the email changes once the link mailed to the new address is followed, and the page says so', async () => {
    const member = await aStaffMember()
    const wanted = unique('moved')
    const asked = await api.call('POST', '/api/profile/email', { token: member.token, body: { email: wanted.toUpperCase() } })
    expect({ status: asked.status, body: asked.body }).toEqual({ status: 200, body: { status: 'confirmation_sent', email: wanted } })
    expect((await api.call('GET', '/api/profile', { token: member.token })).body.email).toBe(member.email)

    const link = await confirmationLinkTo(wanted)
    expect(`${link.origin}${link.pathname}`).toBe(`${BASE_URL}/confirm-email`)
    const notice = fallbackEmailsTo(api, member.email).find((m) => m.template === 'email_change_notice')
    expect(notice?.text).toContain(wanted)

    // Opening the link changes nothing: its button does.
    const shown = await getPage(api, `/confirm-email${link.search}`)
    expect(shown.status).toBe(200)
    expect(shown.text).toContain('Confirm my new email')
    expect((await api.call('GET', '/api/profile', { token: member.token })).body.email).toBe(member.email)

    const done = await confirm(link.searchParams.get('token')!)
    expect(done.status).toBe(200)
    expect(done.text).toContain(`Your email is now ${wanted}`)
    expect((await api.call('GET', '/api/profile', { token: member.token })).body.email).toBe(wanted)
    expect((await api.call('POST', '/api/auth/login', { body: { email: wanted, password: TEST_PASSWORD } })).status).toBe(200)

    const again = await confirm(link.searchParams.get('token')!)
    expect(again.status).toBe(400)
    expect(again.text).toContain('already used or expired')
  })

  test("another member's email is 409, the current one and a malformed one 400 at /email", async () => {
    const member = await aStaffMember()
    const other = await aStaffMember()
    const ask = (email: string) => api.call('POST', '/api/profile/email', { token: member.token, body: { email } })
    expectProblem(await ask(other.email), 409, 'Conflict')
    expectBadRequest(await ask(member.email), '/email')
    expectBadRequest(await ask('not an email'), '/email')
  })

  test('the page refuses a post without a token, in Spanish when asked', async () => {
    const missing = await postForm(api, '/confirm-email?lang=es', {})
    expect(missing.status).toBe(400)
    expect(missing.text).toContain('lang="es"')
  })
})

describe('PUT /api/members/{id}: an admin changes a name and an email', () => {
  test('the name at once; the email pending, then confirmed by the new address', async () => {
    const admin = await api.tokenFor(api.world, 'org_admin')
    const member = await aStaffMember()
    const wanted = unique('renamed')
    const changed = await api.call('PUT', `/api/members/${member.id}`, { token: admin, body: { fullName: 'Robin Ortega', email: wanted } })
    expect(changed.status).toBe(200)
    expect(changed.body).toMatchObject({ fullName: 'Robin Ortega', email: member.email, pendingEmail: wanted })

    expect((await confirm((await confirmationLinkTo(wanted)).searchParams.get('token')!)).status).toBe(200)
    const listed = await api.call<Array<{ id: string; email: string }>>('GET', '/api/members?limit=100', { token: admin })
    const after = listed.body.find((m) => m.id === member.id)
    expect(after).toMatchObject({ email: wanted })
    expect(after).not.toHaveProperty('pendingEmail')
    // The member's own session goes on.
    expect(claimsOf(member.token).sub).toBe(member.id)
    expect((await api.call('GET', '/api/profile', { token: member.token })).body.email).toBe(wanted)
  })
})
