import { afterAll, beforeAll, expect } from 'bun:test'
import type { Role } from '../../../src/domain/auth/roles'
import type { Member } from '../../../src/domain/members/member'
import { PORTS } from '../../../src/main/container'
import { startTestServer, type TestServer } from '../../support/http'
import { TEST_PASSWORD, type World } from '../../support/world'

// What the token tests share (auth-login, auth-refresh, auth-logout and auth-bearer.test.ts): a server of
// each file's own, and members who log in with the test password. Each file calls `openAuthServer()`; its
// tests reach the server through `api`.

export let api: TestServer

/** Before the tests of the file: a server on a fresh database; after them, stopped. */
export function openAuthServer(): void {
  beforeAll(async () => {
    api = await startTestServer()
  })
  afterAll(() => api.stop())
}

export interface TokenPair {
  accessToken: string
  refreshToken: string
  tokenType: string
  expiresIn: number
}

/** A member with the test password; answers its email and organization slug. */
export async function newMember(world: World = api.world, role: Role = 'staff', extra: Partial<Member> = {}) {
  const passwordHash = await api.server.container.get(PORTS.passwords).hash(TEST_PASSWORD)
  const actor = await world.member(role, { passwordHash, ...extra })
  const member = await world.repositories.members.findById(actor.organizationId, actor.memberId)
  const organization = await world.repositories.organizations.findById(actor.organizationId)
  return { actor, email: member!.email, slug: organization!.slug }
}

export function login(body: Record<string, unknown>) {
  return api.call<TokenPair>('POST', '/api/auth/login', { body })
}

export async function loginPair(email: string): Promise<TokenPair> {
  const response = await login({ email, password: TEST_PASSWORD })
  expect(response.status).toBe(200)
  return response.body
}
