import { beforeAll, expect, test } from 'bun:test'
import { MEMBER_ROUTES, nameOf, type Route } from '../../support/routes'
import { expectBadRequest, expectProblem, UNKNOWN_ID } from './helpers'
import { type ActorCase, allows, api, openPermissionsServer, PROFILES, records } from './permissions-support'

// docs/api/conventions.md "Errors", on every member route with an id in its path (tests/support/routes.ts), over
// real HTTP: each route's own succeeding call (its body valid, from permissions-support's records) made with its id
// changed. A malformed id is 400; an id of another organization's record is 404, the very answer an id of nothing
// gets, never 403: nothing tells a stranger that the record exists. A need's id may be its reference number too,
// so any id up to 64 characters is looked up.
openPermissionsServer()

const ID_ROUTES = MEMBER_ROUTES.filter((r) => r.path.includes('{id}'))
const takesReference = (r: Route) => r.path.startsWith('/api/needs/{id}')
/** An org_admin with every profile: allowed on each route, so what answers is the lookup. */
const EVERY_RIGHT: Pick<ActorCase, 'role' | 'profiles'> = { role: 'org_admin', profiles: [...PROFILES] }

let own: string
let stranger: string
beforeAll(async () => {
  own = await api.tokenFor(api.world, EVERY_RIGHT.role, { profiles: EVERY_RIGHT.profiles })
  stranger = await api.tokenFor(await api.world.otherOrganization(), EVERY_RIGHT.role, { profiles: EVERY_RIGHT.profiles })
})

/** The route's succeeding call, with the id of its path given by `id` (from the record's own id). */
async function callWith(r: Route, id: (recordId: string) => string) {
  if (!r.call) throw new Error(`${nameOf(r)}: give it its success and call in tests/support/routes.ts ROUTES`)
  const call = await r.call(records)
  const url = new URL(call.path ?? r.path, 'http://x')
  const segments = url.pathname.split('/')
  const at = r.path.split('/').indexOf('{id}')
  segments[at] = id(segments[at]!)
  return { path: segments.join('/') + url.search, body: call.body }
}

const send = async (r: Route, token: string, call: { path: string; body: unknown }) =>
  api.call(r.method, call.path, { token, ...(call.body === undefined ? {} : { body: call.body }) })

test.each(ID_ROUTES.map((r) => [nameOf(r), r] as const))(
  "%s: another organization's id is 404 as an unknown one is, and a malformed id 400",
  async (_name, r) => {
    expect(allows(r.access, { ...EVERY_RIGHT, label: 'every right', token: own })).toBe(true)
    const foreign = await send(r, stranger, await callWith(r, (id) => id))
    expectProblem(foreign, 404, 'Not found')
    expect((await send(r, stranger, await callWith(r, () => UNKNOWN_ID))).body).toEqual(foreign.body)
    if (takesReference(r)) {
      expectBadRequest(await send(r, own, await callWith(r, () => 'x'.repeat(65))), 'id')
      expectProblem(await send(r, own, await callWith(r, () => 'xyz')), 404, 'Not found')
    } else {
      expectBadRequest(await send(r, own, await callWith(r, () => 'xyz')), 'id')
    }
  },
)
