import { expect } from 'bun:test'
import type { TestServer } from '../../support/http'

// Two organizations of one server that pair through its own PUBLIC_BASE_URL, as two instances would (docs/referrals.md).

/** A port nothing listens on now: the server takes it, so its PUBLIC_BASE_URL is known before it starts. */
export function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const { port } = probe
  probe.stop(true)
  return port as number
}

/** Two new organizations, each with its admin's token. */
export async function twoOrganizations(api: TestServer) {
  const [inviting, redeeming] = await Promise.all([api.world.otherOrganization(), api.world.otherOrganization()])
  const [invitingToken, redeemingToken] = await Promise.all([api.tokenFor(inviting, 'org_admin'), api.tokenFor(redeeming, 'org_admin')])
  return { inviting, redeeming, invitingToken, redeemingToken }
}

export async function pairingCode(api: TestServer, token: string): Promise<string> {
  const invitation = await api.call<{ code: string; expiresAt: string }>('POST', '/api/referral-partners/invitations', { token })
  expect(invitation.status).toBe(201)
  expect(Date.parse(invitation.body.expiresAt) - api.world.clock.now().getTime()).toBeLessThanOrEqual(24 * 60 * 60 * 1000)
  return invitation.body.code
}
