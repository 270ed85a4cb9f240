import { seedConstituent } from './helpers'
import { CONSTITUENTS, CREATE_NEEDS, DUPLICATES, EVERY_ROLE, EXPORT, IMPORT, LIST_MEMBERS } from './permissions-support'
import { MANAGE_MEMBERS, ORG_ADMIN, REPORTS, type RouteCase, SEND_SMS, UPDATE_NEEDS, UPDATE_PARTNERS } from './permissions-support'
import { admin, api, constituentId, needId, partnerId, settings, smtpKey, unconfirmedId, volunteerId } from './permissions-support'
import { anEndpoint, anOpenMatch, aPairToMerge, get, theEndpoint, unique } from './permissions-support'

// Every route a member's token opens, with its row of the table (permissions-support.ts) and a call that
// succeeds for a caller the row allows: a new route gets its line here. permissions-matrix.test.ts calls each
// as every actor; permissions-coverage.test.ts checks that no route of the OpenAPI document is missing.

export const ROUTES: RouteCase[] = [
  { route: 'GET /api/needs', rule: EVERY_ROLE, success: 200, call: get('/api/needs') },
  {
    route: 'POST /api/needs',
    rule: CREATE_NEEDS,
    success: 201,
    call: async () => ({ method: 'POST', path: '/api/needs', body: { partnerId } }),
  },
  { route: 'GET /api/needs/{id}', rule: EVERY_ROLE, success: 200, call: async () => ({ method: 'GET', path: `/api/needs/${needId}` }) },
  {
    route: 'PUT /api/needs/{id}',
    rule: UPDATE_NEEDS,
    success: 200,
    call: async () => ({ method: 'PUT', path: `/api/needs/${needId}`, body: { status: 'IN_PROGRESS' } }),
  },
  {
    route: 'POST /api/needs/{id}/notes',
    rule: EVERY_ROLE,
    success: 201,
    call: async () => ({ method: 'POST', path: `/api/needs/${needId}/notes`, body: { content: 'Called back' } }),
  },
  {
    route: 'POST /api/needs/{id}/sms',
    rule: SEND_SMS,
    success: 202,
    call: async () => ({ method: 'POST', path: `/api/needs/${needId}/sms`, body: { body: 'Your pickup is ready' } }),
  },
  {
    route: 'GET /api/needs/{id}/interactions',
    rule: EVERY_ROLE,
    success: 200,
    call: async () => ({ method: 'GET', path: `/api/needs/${needId}/interactions` }),
  },
  {
    route: 'GET /api/constituents/{id}',
    rule: CONSTITUENTS,
    success: 200,
    call: async () => ({ method: 'GET', path: `/api/constituents/${constituentId}` }),
  },
  {
    route: 'GET /api/needs/{id}/history',
    rule: EVERY_ROLE,
    success: 200,
    call: async () => ({ method: 'GET', path: `/api/needs/${needId}/history` }),
  },
  { route: 'GET /api/constituents', rule: CONSTITUENTS, success: 200, call: get('/api/constituents?query=Ada') },
  {
    route: 'POST /api/constituents',
    rule: CONSTITUENTS,
    success: 201,
    call: async () => ({ method: 'POST', path: '/api/constituents', body: { firstName: 'New', lastName: `Person${unique()}` } }),
  },
  {
    route: 'PUT /api/constituents/{id}',
    rule: CONSTITUENTS,
    success: 200,
    call: async () => ({ method: 'PUT', path: `/api/constituents/${constituentId}`, body: { firstName: 'Ada' } }),
  },
  {
    route: 'GET /api/constituents/{id}/needs',
    rule: CONSTITUENTS,
    success: 200,
    call: async () => ({ method: 'GET', path: `/api/constituents/${constituentId}/needs` }),
  },
  {
    route: 'GET /api/constituents/{id}/household',
    rule: CONSTITUENTS,
    success: 200,
    call: async () => ({ method: 'GET', path: `/api/constituents/${constituentId}/household` }),
  },
  { route: 'POST /api/constituents/merge', rule: DUPLICATES, success: 200, call: aPairToMerge },
  {
    route: 'POST /api/constituents/{id}/erase',
    rule: ORG_ADMIN,
    success: 200,
    call: async () => {
      const { constituentId: erased } = await seedConstituent(api, admin, { firstName: 'Eve', lastName: `Erase${unique()}` })
      return { method: 'POST', path: `/api/constituents/${erased}/erase` }
    },
  },
  {
    route: 'POST /api/constituents/duplicate-check',
    rule: CONSTITUENTS,
    success: 200,
    call: async () => ({ method: 'POST', path: '/api/constituents/duplicate-check', body: { firstName: 'Ada', lastName: 'Lovelace' } }),
  },
  { route: 'GET /api/household-matches', rule: DUPLICATES, success: 200, call: get('/api/household-matches') },
  { route: 'POST /api/household-matches/{id}/resolve', rule: DUPLICATES, success: 200, call: anOpenMatch },
  { route: 'GET /api/needs/export', rule: EXPORT, success: 200, call: get('/api/needs/export?format=csv') },
  {
    route: 'GET /api/constituents/export',
    rule: EXPORT,
    andRule: CONSTITUENTS,
    success: 200,
    call: get('/api/constituents/export?format=csv'),
  },
  {
    route: 'POST /api/constituents/import',
    rule: IMPORT,
    success: 200,
    call: async () => ({ method: 'POST', path: '/api/constituents/import?dryRun=true', csv: 'firstName\nAna\n' }),
  },
  {
    route: 'POST /api/needs/import',
    rule: IMPORT,
    success: 200,
    call: async () => ({ method: 'POST', path: '/api/needs/import?dryRun=true', csv: 'description,createdAt\nFood,2025-01-02\n' }),
  },
  { route: 'GET /api/partners', rule: EVERY_ROLE, success: 200, call: get('/api/partners') },
  {
    route: 'POST /api/partners',
    rule: ORG_ADMIN,
    success: 201,
    call: async () => ({ method: 'POST', path: '/api/partners', body: { name: `Partner ${unique()}`, slaHours: 48 } }),
  },
  {
    route: 'PUT /api/partners/{id} (own partner)',
    rule: UPDATE_PARTNERS,
    success: 200,
    call: async () => ({ method: 'PUT', path: `/api/partners/${partnerId}`, body: { name: 'Pantry P' } }),
  },
  { route: 'GET /api/members', rule: LIST_MEMBERS, success: 200, call: get('/api/members') },
  {
    // docs/api/access.md "Members and invitations": profiles are granted by an org_admin, or by whoever holds them.
    route: 'POST /api/members (a volunteer of P, granting pii_reader)',
    rule: MANAGE_MEMBERS,
    andRule: { roles: ['org_admin'], profiles: ['pii_reader'] },
    success: 201,
    call: async () => ({
      method: 'POST',
      path: '/api/members',
      body: { email: `g-${unique()}@example.org`, role: 'volunteer', partnerId, profiles: ['pii_reader'] },
    }),
  },
  {
    route: 'PUT /api/members/{id} (a volunteer of P, granting duplicate_resolver)',
    rule: MANAGE_MEMBERS,
    andRule: { roles: ['org_admin'], profiles: ['duplicate_resolver'] },
    success: 200,
    // A fresh volunteer each time: once granted, keeping a profile is no grant.
    call: async () => ({
      method: 'PUT',
      path: `/api/members/${(await api.world.member('volunteer', { partnerId })).memberId}`,
      body: { role: 'volunteer', profiles: ['duplicate_resolver'] },
    }),
  },
  {
    route: 'POST /api/members (a volunteer of P)',
    rule: MANAGE_MEMBERS,
    success: 201,
    call: async () => ({
      method: 'POST',
      path: '/api/members',
      body: { email: `m-${unique()}@example.org`, role: 'volunteer', partnerId },
    }),
  },
  {
    route: 'PUT /api/members/{id} (a volunteer of P)',
    rule: MANAGE_MEMBERS,
    success: 200,
    call: async () => ({ method: 'PUT', path: `/api/members/${volunteerId}`, body: { role: 'volunteer' } }),
  },
  {
    route: 'DELETE /api/members/{id} (a volunteer of P)',
    rule: MANAGE_MEMBERS,
    success: 204,
    call: async () => ({ method: 'DELETE', path: `/api/members/${(await api.world.member('volunteer', { partnerId })).memberId}` }),
  },
  {
    route: 'POST /api/members/{id}/invitation',
    rule: MANAGE_MEMBERS,
    success: 200,
    call: async () => ({ method: 'POST', path: `/api/members/${unconfirmedId}/invitation`, body: {} }),
  },
  { route: 'GET /api/profile', rule: EVERY_ROLE, success: 200, call: get('/api/profile') },
  {
    route: 'PUT /api/profile',
    rule: EVERY_ROLE,
    success: 200,
    call: async () => ({ method: 'PUT', path: '/api/profile', body: { fullName: 'Pat Example' } }),
  },
  // A right password would end the caller's sessions (and its token): a wrong one shows the route allowed (400, not 403).
  {
    route: 'POST /api/profile/password',
    rule: EVERY_ROLE,
    success: 400,
    call: async () => ({
      method: 'POST',
      path: '/api/profile/password',
      body: { currentPassword: 'not the password of anyone', newPassword: 'a password of my own choosing' },
    }),
  },
  { route: 'GET /api/organizations/settings', rule: ORG_ADMIN, success: 200, call: get('/api/organizations/settings') },
  {
    route: 'PUT /api/organizations/settings',
    rule: ORG_ADMIN,
    success: 200,
    call: async () => ({ method: 'PUT', path: '/api/organizations/settings', body: settings }),
  },
  { route: 'GET /api/organizations/settings/email', rule: ORG_ADMIN, success: 200, call: get('/api/organizations/settings/email') },
  {
    route: 'PUT /api/organizations/settings/email',
    rule: ORG_ADMIN,
    success: 200,
    call: async () => ({
      method: 'PUT',
      path: '/api/organizations/settings/email',
      body: { provider: 'smtp', apiKey: smtpKey, fromEmail: 'desk@example.org' },
    }),
  },
  {
    route: 'POST /api/organizations/settings/email/test',
    rule: ORG_ADMIN,
    success: 200,
    call: async () => ({
      method: 'POST',
      path: '/api/organizations/settings/email/test',
      body: { provider: 'smtp', apiKey: smtpKey, fromEmail: 'desk@example.org', toEmail: 'x@example.org' },
    }),
  },
  {
    route: 'POST /api/webhook-endpoints',
    rule: ORG_ADMIN,
    success: 201,
    call: async () => ({
      method: 'POST',
      path: '/api/webhook-endpoints',
      body: { url: 'http://127.0.0.1:9/hook', events: ['note.added'] },
    }),
  },
  { route: 'GET /api/webhook-endpoints', rule: ORG_ADMIN, success: 200, call: get('/api/webhook-endpoints') },
  {
    route: 'GET /api/webhook-endpoints/{id}',
    rule: ORG_ADMIN,
    success: 200,
    call: async () => ({ method: 'GET', path: `/api/webhook-endpoints/${await theEndpoint()}` }),
  },
  {
    route: 'PUT /api/webhook-endpoints/{id}',
    rule: ORG_ADMIN,
    success: 200,
    call: async () => ({ method: 'PUT', path: `/api/webhook-endpoints/${await theEndpoint()}`, body: { enabled: true } }),
  },
  {
    route: 'DELETE /api/webhook-endpoints/{id}',
    rule: ORG_ADMIN,
    success: 204,
    call: async () => ({ method: 'DELETE', path: `/api/webhook-endpoints/${await anEndpoint()}` }),
  },
  {
    route: 'GET /api/webhook-endpoints/{id}/deliveries',
    rule: ORG_ADMIN,
    success: 200,
    call: async () => ({ method: 'GET', path: `/api/webhook-endpoints/${await theEndpoint()}/deliveries` }),
  },
  { route: 'GET /api/audit-events', rule: ORG_ADMIN, success: 200, call: get('/api/audit-events') },
  { route: 'GET /api/reports/needs', rule: REPORTS, success: 200, call: get('/api/reports/needs?from=2026-11-01&to=2026-11-30') },
  {
    route: 'POST /api/auth/logout',
    rule: EVERY_ROLE,
    success: 204,
    call: async () => ({ method: 'POST', path: '/api/auth/logout', body: { refreshToken: 'not-a-session-of-anyone' } }),
  },
  // Without the session cookie: nothing to revoke, still 204 to every role.
  {
    route: 'POST /api/auth/session/logout',
    rule: EVERY_ROLE,
    success: 204,
    call: async () => ({ method: 'POST', path: '/api/auth/session/logout', body: {} }),
  },
]
