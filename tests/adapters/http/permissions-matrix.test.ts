import { describe, expect, test } from 'bun:test'
import { ROUTES } from './permissions-routes'
import { actors, allows, api, openPermissionsServer, PROFILES, ROLES } from './permissions-support'

// Every route × role × profile against the permission table of docs/api/access.md "Permissions", over real HTTP.
// The table is written out by hand (permissions-support.ts), not imported: the code must agree with the
// documentation, not with itself. Both directions fail: 403 where the table allows, anything but 403 where
// it refuses. An allowed call must also succeed (its 2xx), so a route cannot pass by failing for another reason.
openPermissionsServer()

describe('every route × role × profile against the permission table', () => {
  test.each(ROUTES.map((r) => [r.route, r] as const))('%s', async (_route, route) => {
    // A refused caller is refused before anything is looked up or consumed: they share one call.
    const shared = await route.call()
    const outcomes = await Promise.all(
      actors.map(async (actor) => {
        const allowed = allows(route.rule, actor) && (!route.andRule || allows(route.andRule, actor))
        const call = allowed ? await route.call() : shared
        const response = await api.call(call.method, call.path, {
          token: actor.token,
          ...(call.body === undefined ? {} : { body: call.body }),
          ...(call.csv === undefined ? {} : { raw: call.csv, headers: { 'content-type': 'text/csv' } }),
        })
        const expected = allowed ? route.success : 403
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
