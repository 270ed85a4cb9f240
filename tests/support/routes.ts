import type { Access, Method, Records, Route } from './route-types'

export type { Access, Body, Call, Method, Records, Route } from './route-types'

// Every route of the service as docs/api.md and its pages describe it, written out by hand: the tests' one list
// of routes. Each line is the route (its path as the OpenAPI document writes it), who may call it, its body, the
// error statuses the document must give it and, for a member's route, a call an allowed caller makes with success.
// Derived from it: the document's paths, security and errors (docs-openapi.test.ts), the permission matrix over
// every role and profile (permissions-matrix.test.ts), the 401s without a token (conventions-routes.test.ts), the
// 400s of unreadable bodies (conventions-bodies.test.ts), the 400s of malformed ids and 404s of other organizations'
// (id-routes.test.ts) and the refusal of other sites' anonymous writes (cross-site.test.ts). A new route is one line
// here; a route served but missing here fails docs-openapi.test.ts by name.

const route = (line: `${Method} /${string}`, access: Access, errors: number[], rest: Partial<Route> = {}): Route => {
  const [method, path] = line.split(' ') as [Method, string]
  return { method, path, access, body: method === 'GET' || method === 'DELETE' ? 'none' : 'json', errors, ...rest }
}
const CONSENT = { obtainedAt: '2020-01-01T00:00:00Z', method: 'verbal', expiresAt: '2100-01-01T00:00:00Z', fields: ['firstName'] }
/** A move of a referral of no one's, with a body that passes its schema. */
const referralMove = (move: string) => ({
  path: `/api/referrals/${crypto.randomUUID()}/${move}`,
  body: move === 'decline' ? { reason: 'No capacity' } : move === 'complete' ? { outcome: 'got_help' } : {},
})
/** Moves without a body. */
const referralMoves = (moves: string[], access: Access) =>
  moves.map((move) =>
    route(`POST /api/referrals/{id}/${move}` as `POST /${string}`, access, [400, 401, 403, 404, 409], {
      body: 'none',
      ...ok(404, () => referralMove(move)),
    }),
  )
const ok = (success: number, call: Route['call'] = () => ({})): Partial<Route> => ({ success, call })
const NO_TOKEN = [400, 403, 413, 415, 429]
const DIRECTORY = [400, 404, 429]
const BODY = [400, 401, 403, 413, 415]
const LIST = [400, 401, 403]
const ONE = [400, 401, 403, 404]
const CHANGE = [400, 401, 403, 404, 409, 413, 415]
const email = (r: Records) => ({ provider: 'smtp', apiKey: r.smtpKey, fromEmail: 'desk@example.org' })

export const ROUTES: Route[] = [
  route('GET /healthz', 'anyone', []),
  route('GET /readyz', 'anyone', [503]),
  route('POST /api/auth/login', 'anyone', [401, ...NO_TOKEN]),
  route('POST /api/auth/refresh', 'anyone', [401, ...NO_TOKEN]),
  route(
    'POST /api/auth/logout',
    'member',
    [400, 401, 413, 415],
    ok(204, () => ({ body: { refreshToken: 'not-a-session-of-anyone' } })),
  ),
  // Answers 200 and its headers at once; the harness then cancels the stream.
  route('GET /api/stream', 'member', [401], ok(200)),
  route('POST /api/auth/session', 'anyone', [401, ...NO_TOKEN]),
  route('POST /api/auth/session/refresh', 'anyone', [401, 403, 415, 429], { body: 'none' }),
  // Without the session cookie: nothing to revoke, still 204 to every role.
  route('POST /api/auth/session/logout', 'member', [401, 415], { body: 'none', ...ok(204, () => ({ body: {} })) }),
  route('POST /api/auth/accept-invite', 'anyone', NO_TOKEN),
  route('POST /api/auth/password-reset', 'anyone', NO_TOKEN),
  route('POST /api/auth/reset-password', 'anyone', NO_TOKEN),
  route('POST /api/needs/public', 'anyone', [409, 422, ...NO_TOKEN]),
  // docs/directory.md: a published directory, anonymous and read-only (HSDS 3.0).
  route('GET /hsds/{organizationSlug}', 'anyone', DIRECTORY),
  route('GET /hsds/{organizationSlug}/services', 'anyone', DIRECTORY),
  route('GET /hsds/{organizationSlug}/services/{id}', 'anyone', DIRECTORY),
  route('GET /hsds/{organizationSlug}/organizations', 'anyone', DIRECTORY),
  route('GET /hsds/{organizationSlug}/organizations/{id}', 'anyone', DIRECTORY),
  route('GET /hsds/{organizationSlug}/service_at_locations', 'anyone', DIRECTORY),
  route('GET /hsds/{organizationSlug}/service_at_locations/{id}', 'anyone', DIRECTORY),
  route(
    'POST /api/needs',
    ['needs:create'],
    [...CHANGE, 422],
    ok(201, (r) => ({ body: { partnerId: r.partnerId } })),
  ),
  route('GET /api/needs', ['needs:read'], LIST, ok(200)),
  route(
    'GET /api/needs/export',
    ['records:export'],
    LIST,
    ok(200, () => ({ path: '/api/needs/export?format=csv' })),
  ),
  route('POST /api/needs/import', ['records:import'], BODY, {
    body: 'csv',
    ...ok(200, () => ({ path: '/api/needs/import?dryRun=true', csv: 'description,createdAt\nFood,2025-01-02\n' })),
  }),
  route(
    'POST /api/needs/bulk',
    ['needs:update'],
    BODY,
    ok(200, (r) => ({ body: { ids: [r.needId], set: { status: 'IN_PROGRESS' } } })),
  ),
  route(
    'GET /api/needs/{id}',
    ['needs:read'],
    ONE,
    ok(200, (r) => ({ path: `/api/needs/${r.needId}` })),
  ),
  route(
    'PUT /api/needs/{id}',
    ['needs:update'],
    CHANGE,
    ok(200, (r) => ({ path: `/api/needs/${r.needId}`, body: { status: 'IN_PROGRESS' } })),
  ),
  route('POST /api/needs/{id}/notes', ['needs:add-note'], [...CHANGE, 422], {
    ...ok(201, (r) => ({ path: `/api/needs/${r.needId}/notes`, body: { content: 'Called back' } })),
  }),
  route('POST /api/needs/{id}/sms', ['needs:send-sms'], [...CHANGE, 422, 429], {
    ...ok(202, (r) => ({ path: `/api/needs/${r.needId}/sms`, body: { body: 'Your pickup is ready' } })),
  }),
  route(
    'GET /api/messages',
    ['needs:send-sms'],
    LIST,
    ok(200, () => ({ path: '/api/messages?unattached=true' })),
  ),
  route('POST /api/messages/{id}/attach', ['needs:send-sms'], [...BODY, 404], {
    ...ok(204, async (r) => ({ path: `/api/messages/${await r.newMessage()}/attach`, body: { needId: r.needId } })),
  }),
  route('POST /api/messages/{id}/need', ['needs:send-sms', 'needs:create'], [...BODY, 404], {
    ...ok(201, async (r) => ({ path: `/api/messages/${await r.newMessage()}/need`, body: { partnerId: r.partnerId } })),
  }),
  route('POST /api/messages/{id}/reply', ['needs:send-sms'], [...BODY, 404, 429], {
    ...ok(202, async (r) => ({ path: `/api/messages/${await r.newMessage()}/reply`, body: { body: 'Who is this for?' } })),
  }),
  route(
    'GET /api/needs/{id}/interactions',
    ['needs:read'],
    ONE,
    ok(200, (r) => ({ path: `/api/needs/${r.needId}/interactions` })),
  ),
  route(
    'GET /api/needs/{id}/history',
    ['needs:read'],
    ONE,
    ok(200, (r) => ({ path: `/api/needs/${r.needId}/history` })),
  ),
  route('GET /api/partners', ['partners:list'], [400, 401], ok(200)),
  route(
    'POST /api/partners',
    ['partners:create'],
    BODY,
    ok(201, (r) => ({ body: { name: `Partner ${r.unique()}`, slaHours: 48 } })),
  ),
  // Its own partner, for a partner_admin.
  route(
    'PUT /api/partners/{id}',
    ['partners:update'],
    CHANGE,
    ok(200, (r) => ({ path: `/api/partners/${r.partnerId}`, body: { name: 'Pantry P' } })),
  ),
  route(
    'GET /api/services',
    ['services:list'],
    [400, 401],
    ok(200, (r) => ({ path: `/api/services?partnerId=${r.partnerId}&includeArchived=true` })),
  ),
  // Of its own partner, for a partner_admin.
  route(
    'POST /api/services',
    ['services:manage'],
    BODY,
    ok(201, (r) => ({ body: { partnerId: r.partnerId, name: `Service ${r.unique()}` } })),
  ),
  route(
    'GET /api/services/{id}',
    ['services:list'],
    [400, 401, 404],
    ok(200, (r) => ({ path: `/api/services/${r.serviceId}` })),
  ),
  route(
    'PUT /api/services/{id}',
    ['services:manage'],
    [400, 401, 403, 404, 413, 415],
    ok(200, (r) => ({ path: `/api/services/${r.serviceId}`, body: { acceptingReferrals: true } })),
  ),
  route(
    'GET /api/taxonomy-terms',
    ['services:list'],
    [400, 401],
    ok(200, () => ({ path: '/api/taxonomy-terms?vocabulary=oe&q=food' })),
  ),
  route('POST /api/taxonomy-terms/import', ['taxonomy:import'], BODY, {
    body: 'csv',
    ...ok(200, () => ({ path: '/api/taxonomy-terms/import?vocabulary=oe&dryRun=true', csv: 'code,name\n1102,Food\n' })),
  }),
  route(
    'GET /api/constituents',
    ['constituents:read'],
    LIST,
    ok(200, () => ({ path: '/api/constituents?query=Ada' })),
  ),
  route('POST /api/constituents', ['constituents:update'], BODY, {
    ...ok(201, (r) => ({ body: { firstName: 'New', lastName: `Person${r.unique()}` } })),
  }),
  // The lists' read permission comes on top (docs/api/exports-import.md "Exports").
  route('GET /api/constituents/export', ['records:export', 'constituents:read'], LIST, {
    ...ok(200, () => ({ path: '/api/constituents/export?format=csv' })),
  }),
  route('POST /api/constituents/import', ['records:import'], BODY, {
    body: 'csv',
    ...ok(200, () => ({ path: '/api/constituents/import?dryRun=true', csv: 'firstName\nAna\n' })),
  }),
  route(
    'GET /api/constituents/{id}',
    ['constituents:read'],
    ONE,
    ok(200, (r) => ({ path: `/api/constituents/${r.constituentId}` })),
  ),
  route('PUT /api/constituents/{id}', ['constituents:update'], CHANGE, {
    ...ok(200, (r) => ({ path: `/api/constituents/${r.constituentId}`, body: { firstName: 'Ada' } })),
  }),
  route('POST /api/constituents/{id}/erase', ['constituents:erase'], ONE, {
    body: 'none',
    ...ok(200, async (r) => ({ path: `/api/constituents/${await r.newConstituent()}/erase` })),
  }),
  route(
    'GET /api/constituents/{id}/needs',
    ['constituents:read'],
    ONE,
    ok(200, (r) => ({ path: `/api/constituents/${r.constituentId}/needs` })),
  ),
  route('GET /api/constituents/{id}/household', ['constituents:read'], ONE, {
    ...ok(200, (r) => ({ path: `/api/constituents/${r.constituentId}/household` })),
  }),
  route(
    'POST /api/constituents/merge',
    ['constituents:merge'],
    [...CHANGE],
    ok(200, async (r) => ({ body: await r.pairToMerge() })),
  ),
  route('POST /api/constituents/duplicate-check', ['constituents:read'], BODY, {
    ...ok(200, () => ({ body: { firstName: 'Ada', lastName: 'Lovelace' } })),
  }),
  route('GET /api/household-matches', ['household-matches:list'], LIST, ok(200)),
  route('POST /api/household-matches/{id}/resolve', ['household-matches:resolve'], CHANGE, {
    ...ok(200, async (r) => ({ path: `/api/household-matches/${await r.openMatch()}/resolve`, body: { action: 'DISMISS' } })),
  }),
  route('GET /api/members', ['members:list'], LIST, ok(200)),
  // A volunteer of partner P, which a partner_admin of P manages too.
  route('POST /api/members', ['members:manage'], [400, 401, 403, 409, 413, 415], {
    ...ok(201, (r) => ({ body: { email: `m-${r.unique()}@example.org`, role: 'volunteer', partnerId: r.partnerId } })),
  }),
  route(
    'PUT /api/members/{id}',
    ['members:manage'],
    CHANGE,
    ok(200, (r) => ({ path: `/api/members/${r.volunteerId}`, body: { role: 'volunteer' } })),
  ),
  route(
    'DELETE /api/members/{id}',
    ['members:manage'],
    [...ONE, 409],
    ok(204, async (r) => ({ path: `/api/members/${await r.newVolunteer()}` })),
  ),
  route('POST /api/members/{id}/invitation', ['members:manage'], CHANGE, {
    body: 'optional json',
    ...ok(200, (r) => ({ path: `/api/members/${r.unconfirmedId}/invitation`, body: {} })),
  }),
  route('GET /api/profile', ['profile:read'], [401], ok(200)),
  route(
    'PUT /api/profile',
    ['profile:update'],
    [400, 401, 413, 415],
    ok(200, () => ({ body: { fullName: 'Pat Example' } })),
  ),
  route('GET /api/profile/views', ['profile:read'], [400, 401], ok(200)),
  route(
    'POST /api/profile/views',
    ['profile:update'],
    [400, 401, 409, 413, 415],
    ok(201, (r) => ({ body: { name: `Mine ${r.unique()}`, filters: { status: ['NEW'] } } })),
  ),
  // Each caller's views are its own: an id of no view of its shows the route allowed (404, not 403).
  route(
    'PUT /api/profile/views/{id}',
    ['profile:update'],
    [400, 401, 404, 409, 413, 415],
    ok(404, () => ({ path: `/api/profile/views/${crypto.randomUUID()}`, body: { name: 'Renamed' } })),
  ),
  route(
    'DELETE /api/profile/views/{id}',
    ['profile:update'],
    [400, 401, 404],
    ok(404, () => ({ path: `/api/profile/views/${crypto.randomUUID()}` })),
  ),
  route('POST /api/profile/email', ['profile:update'], [400, 401, 409, 413, 415, 429], {
    ...ok(200, (r) => ({ body: { email: `new-${r.unique()}@example.org` } })),
  }),
  // A right password would end the caller's sessions (and its token): a wrong one shows the route allowed (400, not 403).
  route('POST /api/profile/password', 'member', [400, 401, 413, 415, 429], {
    ...ok(400, () => ({ body: { currentPassword: 'not the password of anyone', newPassword: 'a password of my own choosing' } })),
  }),
  route('GET /api/organizations/settings', ['organization:settings'], [401, 403], ok(200)),
  route(
    'PUT /api/organizations/settings',
    ['organization:settings'],
    [400, 401, 403, 409, 413, 415],
    ok(200, (r) => ({ body: r.settings })),
  ),
  route('GET /api/organizations/settings/email', ['organization:settings'], [401, 403, 404], ok(200)),
  route(
    'PUT /api/organizations/settings/email',
    ['organization:settings'],
    BODY,
    ok(200, (r) => ({ body: email(r) })),
  ),
  route('POST /api/organizations/settings/email/test', ['organization:settings'], [...BODY, 502], {
    ...ok(200, (r) => ({ body: { ...email(r), toEmail: 'x@example.org' } })),
  }),
  route('GET /api/organizations/quick-replies', ['needs:send-sms'], [401, 403], ok(200)),
  route('GET /api/organizations/outbox', ['organization:settings'], LIST, ok(200)),
  route(
    'PUT /api/organizations/quick-replies',
    ['organization:settings'],
    BODY,
    ok(200, () => ({ body: { replies: [{ label: 'Ready', body: { en: 'Your box {reference} is ready.' } }] } })),
  ),
  route('GET /api/webhook-endpoints', ['webhooks:manage'], LIST, ok(200)),
  route('POST /api/webhook-endpoints', ['webhooks:manage'], [400, 401, 403, 409, 413, 415], {
    ...ok(201, () => ({ body: { url: 'http://127.0.0.1:9/hook', events: ['note.added'] } })),
  }),
  route(
    'GET /api/webhook-endpoints/{id}',
    ['webhooks:manage'],
    ONE,
    ok(200, async (r) => ({ path: `/api/webhook-endpoints/${await r.theEndpoint()}` })),
  ),
  route('PUT /api/webhook-endpoints/{id}', ['webhooks:manage'], [...ONE, 413, 415], {
    ...ok(200, async (r) => ({ path: `/api/webhook-endpoints/${await r.theEndpoint()}`, body: { enabled: true } })),
  }),
  route('DELETE /api/webhook-endpoints/{id}', ['webhooks:manage'], ONE, {
    ...ok(204, async (r) => ({ path: `/api/webhook-endpoints/${await r.newEndpoint()}` })),
  }),
  route('GET /api/webhook-endpoints/{id}/deliveries', ['webhooks:manage'], ONE, {
    ...ok(200, async (r) => ({ path: `/api/webhook-endpoints/${await r.theEndpoint()}/deliveries` })),
  }),
  route('GET /api/audit-events', ['audit:read'], LIST, ok(200)),
  route(
    'GET /api/reports/needs',
    ['reports:read'],
    LIST,
    ok(200, () => ({ path: '/api/reports/needs?from=2026-11-01&to=2026-11-30' })),
  ),
  route(
    'GET /api/reports/served',
    ['reports:read'],
    LIST,
    ok(200, () => ({ path: '/api/reports/served?from=2026-11-01&to=2026-11-30' })),
  ),
  route(
    'GET /api/reports/served/export',
    ['reports:read'],
    LIST,
    ok(200, () => ({ path: '/api/reports/served/export?format=csv&from=2026-11-01&to=2026-11-30' })),
  ),
  route('GET /api/referral-partners', ['referral-partners:manage'], [401, 403], ok(200)),
  route('POST /api/referral-partners/invitations', ['referral-partners:manage'], [401, 403], { body: 'none', ...ok(201) }),
  // An allowed caller gets past the permission to the code's check, or to the pairing's lookup.
  route(
    'POST /api/referral-partners',
    ['referral-partners:manage'],
    [400, 401, 403, 409, 413, 415, 502],
    ok(400, () => ({ body: { code: 'not-a-code' } })),
  ),
  route(
    'DELETE /api/referral-partners/{id}',
    ['referral-partners:manage'],
    ONE,
    ok(404, () => ({ path: `/api/referral-partners/${crypto.randomUUID()}` })),
  ),
  // An allowed caller gets past the permission to the pairing's, the need's or the referral's lookup.
  route(
    'GET /api/referral-partners/{id}/services',
    ['referrals:send'],
    [400, 401, 403, 404, 502],
    ok(404, () => ({ path: `/api/referral-partners/${crypto.randomUUID()}/services` })),
  ),
  route(
    'POST /api/needs/{id}/referrals',
    ['referrals:send'],
    [400, 401, 403, 404, 413, 415],
    ok(400, (r) => ({
      path: `/api/needs/${r.needId}/referrals`,
      body: { referralPartnerId: crypto.randomUUID(), serviceId: 's', consent: CONSENT },
    })),
  ),
  route(
    'GET /api/referrals',
    ['referrals:read'],
    [400, 401],
    ok(200, () => ({ path: '/api/referrals?direction=in' })),
  ),
  route(
    'GET /api/referrals/{id}',
    ['referrals:read'],
    [400, 401, 404],
    ok(404, () => ({ path: `/api/referrals/${crypto.randomUUID()}` })),
  ),
  ...(['decline', 'complete'] as const).map((move) =>
    route(
      `POST /api/referrals/{id}/${move}`,
      ['referrals:respond'],
      CHANGE,
      ok(404, () => referralMove(move)),
    ),
  ),
  ...referralMoves(['accept', 'start'], ['referrals:respond']),
  ...referralMoves(['cancel', 'revoke-consent'], ['referrals:send']),
  // Its side's permission, once the referral is found.
  ...referralMoves(['send-again'], 'member'),
  // Partners' instances call these: no bearer token, a pairing code's secret or a message's signature instead.
  route('POST /federation/v1/pairings', 'anyone', [400, 401, 413, 415, 429]),
  route('POST /federation/v1/messages', 'anyone', [400, 401, 409, 413, 415, 429]),
  // Twilio calls these: no bearer token, an X-Twilio-Signature instead (403 without a valid one).
  route('POST /api/webhooks/twilio/sms', 'twilio', [400, 403, 413], { body: 'form' }),
  route('POST /api/webhooks/twilio/status', 'twilio', [400, 403, 413], { body: 'form' }),
]

/** The routes that take a JSON document. */
export const JSON_BODY_ROUTES = ROUTES.filter((r) => r.body === 'json' || r.body === 'optional json')
/** `method path`, the way the tests name a route. */
export const nameOf = (r: Pick<Route, 'method' | 'path'>) => `${r.method} ${r.path}`
/** The routes a member's token opens. */
export const MEMBER_ROUTES = ROUTES.filter((r) => r.access !== 'anyone' && r.access !== 'twilio')
/** The route's path with each `{id}` replaced by `id`. */
export const pathWith = (r: Route, id: string) => r.path.replaceAll('{id}', id)
