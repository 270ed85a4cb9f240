import { describe, expect, test } from 'bun:test'
import type { Profile } from '../../../src/domain/auth/roles'
import { type Access, type Call, MEMBER_ROUTES, nameOf, type Records, type Route } from '../../support/routes'
import { type ActorCase, actors, allows, api, openPermissionsServer, PROFILES, records, ROLES } from './permissions-support'

// Every route × role × profile against the permission table of docs/api/access.md "Permissions", over real HTTP.
// Who may call each route (tests/support/routes.ts) and who holds what (tests/support/permissions.ts) are written
// out by hand, not imported: the code must agree with the documentation, not with itself. Both directions fail:
// 403 where the table allows, anything but 403 where it refuses. An allowed call must also succeed (its 2xx), so a
// route cannot pass by failing for another reason.
openPermissionsServer()

interface Case {
  name: string
  access: Access
  /** A profile the call grants: an org_admin may, or whoever holds it (docs/api/access.md "Members and invitations"). */
  grants?: Profile
  success?: number
  call?: Route['call']
  method: Route['method']
  path: string
}

/** Beyond each route's own call: granting a profile to a volunteer of partner P. */
const GRANTS: Case[] = [
  {
    name: 'POST /api/members (granting pii_reader)',
    method: 'POST',
    path: '/api/members',
    access: ['members:manage'],
    grants: 'pii_reader',
    success: 201,
    call: (r) => ({ body: { email: `g-${r.unique()}@example.org`, role: 'volunteer', partnerId: r.partnerId, profiles: ['pii_reader'] } }),
  },
  {
    // A fresh volunteer each time: once granted, keeping a profile is no grant.
    name: 'PUT /api/members/{id} (granting duplicate_resolver)',
    method: 'PUT',
    path: '/api/members/{id}',
    access: ['members:manage'],
    grants: 'duplicate_resolver',
    success: 200,
    call: async (r) => ({ path: `/api/members/${await r.newVolunteer()}`, body: { role: 'volunteer', profiles: ['duplicate_resolver'] } }),
  },
]

const CASES: Case[] = [...MEMBER_ROUTES.map((route) => ({ ...route, name: nameOf(route) })), ...GRANTS]

const allowed = (c: Case, actor: ActorCase) =>
  allows(c.access, actor) && (!c.grants || actor.role === 'org_admin' || actor.profiles.includes(c.grants))

async function callOf(c: Case, r: Records): Promise<Call> {
  if (c.success === undefined || !c.call)
    throw new Error(`route ${c.name} takes a member's token: give it its success and call in tests/support/routes.ts ROUTES`)
  return { method: c.method, path: c.path, ...(await c.call(r)) }
}

describe('every route × role × profile against the permission table', () => {
  test.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    // A refused caller is refused before anything is looked up or consumed: they share one call.
    const shared = await callOf(c, records)
    const outcomes = await Promise.all(
      actors.map(async (actor) => {
        const call = allowed(c, actor) ? await callOf(c, records) : shared
        const response = await api.call(call.method, call.path, {
          token: actor.token,
          ...(call.body === undefined ? {} : { body: call.body }),
          ...(call.csv === undefined ? {} : { raw: call.csv, headers: { 'content-type': 'text/csv' } }),
        })
        const expected = allowed(c, actor) ? c.success : 403
        const problem = response.body as { detail?: string; errors?: unknown }
        return response.status === expected
          ? undefined
          : `${actor.label}: ${response.status} where ${expected} ${JSON.stringify([problem?.detail, problem?.errors])}`
      }),
    )
    expect(outcomes.filter(Boolean)).toEqual([])
    expect(outcomes).toHaveLength(ROLES.length * (PROFILES.length + 1))
  })
})
