import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { PORTS } from '../../../src/main/container'
import { startTestServer, TEST_DATABASE, type TestServer } from '../../support/http'
import { TEST_PASSWORD } from '../../support/world'

// docs/api/access.md "Members and invitations": DELETE /api/members/{id} deactivates; PUT {active: true} restores.
let api: TestServer
let admin: string
beforeAll(async () => {
  api = await startTestServer()
  admin = await api.tokenFor(api.world, 'org_admin')
})
afterAll(() => api.stop())

async function aStaffMember() {
  const token = await api.tokenFor(api.world, 'staff')
  const me = (await api.call('GET', '/api/profile', { token })).body as { id: string; email: string }
  const slug = (await api.world.repositories.organizations.findById(api.world.organizationId))!.slug
  const login = () => api.call('POST', '/api/auth/login', { body: { email: me.email, password: TEST_PASSWORD, organizationSlug: slug } })
  return { token, id: me.id, email: me.email, login }
}

describe('DELETE /api/members/{id}', () => {
  test('ends the member’s access on its next request; refresh and login answer as a wrong password; the member stays listed, inactive', async () => {
    const member = await aStaffMember()
    const session = (await member.login()).body as { refreshToken: string }
    expect((await api.call('GET', '/api/needs', { token: member.token })).status).toBe(200)

    const deleted = await api.call('DELETE', `/api/members/${member.id}`, { token: admin })
    expect(deleted.status).toBe(204)

    expect((await api.call('GET', '/api/needs', { token: member.token })).status).toBe(401)
    expect((await api.call('POST', '/api/auth/refresh', { body: { refreshToken: session.refreshToken } })).status).toBe(401)
    const refused = await member.login()
    const wrong = await api.call('POST', '/api/auth/login', { body: { email: member.email, password: 'not the password at all' } })
    expect({ status: refused.status, body: refused.body }).toEqual({ status: wrong.status, body: wrong.body })
    // Other tests deactivate members of the same organization too: this one must be among the inactive, all inactive.
    const inactive = (await api.call('GET', '/api/members?active=false', { token: admin })).body as Array<{ id: string; active: boolean }>
    expect(inactive.map((m) => [m.id, m.active])).toContainEqual([member.id, false])
    expect(inactive.filter((m) => m.active)).toEqual([])
    expect((await api.call('GET', '/api/members?active=true', { token: admin })).body.map((m: { id: string }) => m.id)).not.toContain(
      member.id,
    )
  })

  test('PUT {active: true} restores access with the same password', async () => {
    const member = await aStaffMember()
    await api.call('DELETE', `/api/members/${member.id}`, { token: admin })
    const restored = await api.call('PUT', `/api/members/${member.id}`, { token: admin, body: { active: true } })
    expect(restored).toMatchObject({ status: 200, body: { id: member.id, active: true } })
    expect((await member.login()).status).toBe(200)
  })

  test('oneself is 409, an unknown member 404, a member of another partner 403 to a partner_admin; nothing changes', async () => {
    const me = (await api.call('GET', '/api/profile', { token: admin })).body as { id: string }
    expect((await api.call('DELETE', `/api/members/${me.id}`, { token: admin })).status).toBe(409)
    expect((await api.call('DELETE', `/api/members/${crypto.randomUUID()}`, { token: admin })).status).toBe(404)
    const pantry = await api.world.partner({ name: 'Pantry' })
    const shelter = await api.world.partner({ name: 'Shelter' })
    const partnerAdmin = await api.tokenFor(api.world, 'partner_admin', { partnerId: pantry.id })
    const own = await api.world.member('partner_agent', { partnerId: pantry.id })
    const theirs = await api.world.member('partner_agent', { partnerId: shelter.id })
    expect((await api.call('DELETE', `/api/members/${theirs.memberId}`, { token: partnerAdmin })).status).toBe(403)
    expect((await api.call('DELETE', `/api/members/${own.memberId}`, { token: partnerAdmin })).status).toBe(204)
    const members = (await api.call('GET', '/api/members', { token: admin })).body as Array<{ id: string; active: boolean }>
    expect(members.find((m) => m.id === me.id)?.active).toBe(true)
    expect(members.find((m) => m.id === theirs.memberId)?.active).toBe(true)
  })

  test.skipIf(TEST_DATABASE !== 'postgres')('deactivated through one instance, refused by another on the same database', async () => {
    const config = api.server.container.get(PORTS.config)
    const url = config.database.kind === 'postgres' ? config.database.url : ''
    const other = await startTestServer({
      DATABASE_URL: url,
      JWT_SECRET: config.jwtSecret,
      DATA_ENCRYPTION_KEY: config.dataEncryptionKey.toString('hex'),
    })
    try {
      const member = await aStaffMember()
      expect((await other.call('GET', '/api/needs', { token: member.token })).status).toBe(200)
      expect((await api.call('DELETE', `/api/members/${member.id}`, { token: admin })).status).toBe(204)
      expect((await other.call('GET', '/api/needs', { token: member.token })).status).toBe(401)
    } finally {
      await other.stop()
    }
  })
})
