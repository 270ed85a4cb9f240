import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import { deliverUntil, fallbackEmailsTo } from './helpers'

// docs/api/organization.md "Development outbox", over real HTTP (SQLite, and PostgreSQL with TEST_DATABASE=postgres).
let api: TestServer
beforeAll(async () => {
  api = await startTestServer()
})
afterAll(() => api.stop())

interface Kept {
  id: string
  channel: string
  kind: string
  recipient: string
  subject?: string
  body: string
  createdAt: string
}

describe('GET /api/organizations/outbox', () => {
  test('an admin reads the mail that went nowhere, newest first and paged; a password reset without its link', async () => {
    const org = await api.world.otherOrganization()
    const token = await api.tokenFor(org, 'org_admin')
    const staff = await api.tokenFor(org, 'staff')
    const email = (await api.call<{ email: string }>('GET', '/api/profile', { token: staff })).body.email
    expect((await api.call('POST', '/api/auth/password-reset', { body: { email } })).status).toBe(202)
    expect((await api.call('POST', '/api/auth/password-reset', { body: { email } })).status).toBe(202)
    await deliverUntil(api, () => (fallbackEmailsTo(api, email).length >= 2 ? true : undefined), 'two reset mails')

    const first = await api.call<Kept[]>('GET', '/api/organizations/outbox?limit=1', { token })
    expect(first.status).toBe(200)
    expect(first.headers.get('x-total-count')).toBe('2')
    expect(first.body).toHaveLength(1)
    const [newest] = first.body
    expect(newest).toMatchObject({ channel: 'email', kind: 'password_reset', recipient: email })
    expect(newest!.subject).toStartWith('Choose a new password')
    expect(newest!.body).toContain('[link withheld]')
    expect(newest!.body).not.toContain('token=')
    const second = await api.call<Kept[]>('GET', '/api/organizations/outbox?limit=1&page=2', { token })
    expect(second.body[0]!.createdAt <= newest!.createdAt).toBe(true)
    // The organization's own only: the first organization's admin sees none of these.
    const elsewhere = await api.call<Kept[]>('GET', '/api/organizations/outbox', { token: await api.tokenFor(api.world, 'org_admin') })
    expect(elsewhere.body.filter((message) => message.recipient === email)).toEqual([])
  })
})
