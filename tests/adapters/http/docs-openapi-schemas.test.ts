import { describe, expect, test } from 'bun:test'
import { EMAIL_KEY_FORMATS, EMAIL_PROVIDERS, type EmailKeyFormat } from '../../../src/domain/messaging/email'
import { ROUTES } from '../../support/routes'
import { openDocsServer, operation, type Schema, served } from './docs-support'

// docs/api.md (lists, identifiers, limits, "SMS") on the served OpenAPI document: the parameters, headers and
// body rules route by route, held against the contract, so a client built from the document asks what the
// service accepts and reads what it answers.
openDocsServer()

describe('GET /api/openapi.json', () => {
  test('lists document page and limit with their bounds, and the status filter', () => {
    for (const path of [
      '/api/needs',
      '/api/partners',
      '/api/constituents',
      '/api/constituents/{id}/needs',
      '/api/household-matches',
      '/api/members',
      '/api/needs/{id}/history',
    ]) {
      const params = Object.fromEntries((operation('get', path).parameters ?? []).map((p) => [p.name, p]))
      expect(params.page).toMatchObject({ in: 'query', required: false, schema: { minimum: 1 } })
      expect(params.limit).toMatchObject({ in: 'query', required: false, schema: { minimum: 1, maximum: 100, default: 25 } })
    }
    const status = (operation('get', '/api/needs').parameters ?? []).find((p) => p.name === 'status')
    expect(status).toMatchObject({
      style: 'form',
      explode: false,
      schema: { type: 'array', items: { enum: expect.arrayContaining(['NEW', 'IN_PROGRESS']) } },
    })
  })

  test('path ids are documented: UUIDs, except on need routes, which also take the reference number', () => {
    const id = (method: string, path: string) => (operation(method, path).parameters ?? []).find((p) => p.name === 'id')
    const uuidRoutes = [
      ['put', '/api/partners/{id}'],
      ['get', '/api/constituents/{id}'],
      ['put', '/api/constituents/{id}'],
      ['get', '/api/constituents/{id}/needs'],
      ['get', '/api/constituents/{id}/household'],
      ['post', '/api/household-matches/{id}/resolve'],
      ['put', '/api/members/{id}'],
    ]
    for (const [method, path] of uuidRoutes) {
      expect(id(method!, path!)).toMatchObject({ in: 'path', required: true, schema: { type: 'string', format: 'uuid' } })
    }
    const needRoutes = ROUTES.filter((r) => r.path.startsWith('/api/needs/{id}'))
    expect(needRoutes.length).toBeGreaterThan(0)
    for (const { method, path } of needRoutes)
      expect(id(method, path)).toMatchObject({ in: 'path', required: true, schema: { type: 'string', maxLength: 64 } })
  })

  test('rate-limited routes document 429 with Retry-After, and the RateLimit fields on every answer', () => {
    const limited = ROUTES.filter((r) => r.errors.includes(429))
      .map((r) => `${r.method.toLowerCase()} ${r.path}`)
      .filter((route) => !TEXTING.includes(route))
    expect(limited.sort()).toEqual([
      'get /hsds/{organizationSlug}',
      'get /hsds/{organizationSlug}/organizations',
      'get /hsds/{organizationSlug}/organizations/{id}',
      'get /hsds/{organizationSlug}/service_at_locations',
      'get /hsds/{organizationSlug}/service_at_locations/{id}',
      'get /hsds/{organizationSlug}/services',
      'get /hsds/{organizationSlug}/services/{id}',
      'post /api/auth/accept-invite',
      'post /api/auth/login',
      'post /api/auth/password-reset',
      'post /api/auth/refresh',
      'post /api/auth/reset-password',
      'post /api/auth/session',
      'post /api/auth/session/refresh',
      'post /api/needs/public',
      'post /api/profile/email',
      'post /api/profile/password',
      'post /federation/v1/messages',
      'post /federation/v1/pairings',
    ])
    for (const route of limited) {
      const [method, path] = route.split(' ') as [string, string]
      for (const [status, response] of Object.entries<{ headers?: Record<string, { schema: Schema }> }>(
        operation(method, path).responses!,
      )) {
        const own = status === '429' ? ['Retry-After'] : status === '401' ? ['WWW-Authenticate'] : []
        expect(Object.keys(response.headers ?? {}).sort()).toEqual(['RateLimit', 'RateLimit-Policy', ...own].sort())
      }
      expect(operation(method, path).responses!['429'].headers['Retry-After'].schema).toMatchObject({ type: 'integer', minimum: 1 })
    }
    expect(Object.keys(operation('get', '/api/needs').responses!['200'].headers)).not.toContain('RateLimit')
  })

  const TEXTING = ['post /api/needs/{id}/sms', 'post /api/messages/{id}/reply']
  test('texting, limited per member and per number rather than per address, documents 429 with Retry-After only', () => {
    for (const route of TEXTING) {
      const [method, path] = route.split(' ') as [string, string]
      expect(Object.keys(operation(method, path).responses!['429'].headers)).toEqual(['Retry-After'])
    }
    const responses = operation('post', '/api/needs/{id}/sms').responses!
    expect(responses['429'].headers['Retry-After'].schema).toMatchObject({ type: 'integer', minimum: 1 })
    expect(responses['202'].headers).toBeUndefined()
  })

  test('the anonymous intake answer leaves out what would tell a stranger who else is on file', () => {
    const schema = Object.values<{ schema: Schema }>(operation('post', '/api/needs/public').responses!['201'].content)[0]!.schema
    for (const hidden of ['duplicateWarning', 'constituentId', 'householdId']) expect(schema.properties).not.toHaveProperty(hidden)
    expect(schema.properties).toHaveProperty('referenceNumber')
  })
  test('constituent fields carry their formats and limits, the same on create, update and merge', () => {
    const body = (method: string, path: string) => operation(method, path).requestBody!.content['application/json']!.schema
    const types = (node: Schema) => [node.type].flat()
    const create = body('post', '/api/constituents')
    const update = body('put', '/api/constituents/{id}')
    const overrides = body('post', '/api/constituents/merge').properties.fieldOverrides
    expect(overrides.additionalProperties).toBe(false)
    expect(body('post', '/api/household-matches/{id}/resolve').properties.fieldOverrides).toEqual(overrides)
    for (const { properties } of [create, update, overrides]) {
      // A phone as typed, read by the domain in the organization's country: its limit, no pattern.
      expect(properties.phone).toMatchObject({ maxLength: 32 })
      expect(properties.phone.pattern).toBeUndefined()
      expect(properties.email).toMatchObject({ maxLength: 254 })
      expect(properties.addressZip).toMatchObject({ pattern: '^[0-9]{5}$', maxLength: 5 })
      const state = new RegExp((properties.addressState.pattern ?? properties.addressState.anyOf?.find((b: Schema) => b.pattern)?.pattern)!)
      for (const code of ['NY', 'CA', 'DC', 'PR']) expect(state.test(code)).toBe(true)
      for (const code of ['ZZ', 'ny', 'NYC']) expect(state.test(code)).toBe(false)
      expect(properties.dateOfBirth).toMatchObject({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', maxLength: 10 })
      for (const name of ['firstName', 'lastName', 'addressStreet', 'addressCity'])
        expect(properties[name]).toMatchObject({ maxLength: 200 })
      for (const node of Object.values<Schema>(properties)) expect(types(node)).toContain('string')
    }
    expect(create.required ?? []).toEqual([])
    expect(create.properties.householdId).toMatchObject({ type: 'string', format: 'uuid' })
    for (const name of ['phone', 'firstName', 'dateOfBirth']) expect(types(create.properties[name])).toEqual(['string'])
    expect(update.properties).not.toHaveProperty('householdId')
    // null clears a field on update and in fieldOverrides, where names take no null.
    for (const name of ['firstName', 'phone', 'email', 'addressStreet', 'addressZip', 'dateOfBirth'])
      expect(types(update.properties[name])).toContain('null')
    for (const name of ['phone', 'email', 'addressCity', 'dateOfBirth']) expect(types(overrides.properties[name])).toContain('null')
    for (const name of ['firstName', 'lastName']) expect(types(overrides.properties[name])).toEqual(['string'])
    expect(body('post', '/api/constituents/merge').required).toEqual(expect.arrayContaining(['sourceConstituentId', 'targetConstituentId']))
    const resolve = body('post', '/api/household-matches/{id}/resolve')
    expect(resolve.required).toEqual(['action'])
    expect(resolve.properties.action.enum).toEqual(['MERGE_CONSTITUENT', 'MERGE_HOUSEHOLD', 'DISMISS'])
    const status = (operation('get', '/api/household-matches').parameters ?? []).find((p) => p.name === 'status')
    expect(status.schema.enum).toEqual(['OPEN', 'RESOLVED', 'DISMISSED'])
  })

  test('members, profile and accept-invite bodies carry the contract’s rules', () => {
    const body = (method: string, path: string) => operation(method, path).requestBody!.content['application/json']!.schema
    const invite = body('post', '/api/members')
    expect(invite.required).toEqual(['email', 'role'])
    expect(invite.properties.role.enum).toEqual(['org_admin', 'partner_admin', 'partner_agent', 'staff', 'volunteer'])
    const profiles = ['needs_processor', 'intake_staff', 'sms_communicator', 'email_phone_communicator', 'pii_reader', 'duplicate_resolver']
    for (const schema of [invite, body('put', '/api/members/{id}')]) {
      expect(schema.properties.profiles.items.enum).toEqual(profiles)
      // A phone as typed, read by the domain in the organization's country: its limit, no pattern.
      expect(schema.properties.phone).toMatchObject({ maxLength: 32 })
      expect(schema.properties.phone.pattern).toBeUndefined()
      expect(schema.properties.partnerId).toMatchObject({ format: 'uuid' })
    }
    // PUT is a partial update (docs/api/conventions.md "Updates"): nothing is required.
    expect(body('put', '/api/members/{id}').required ?? []).toEqual([])
    expect([body('put', '/api/members/{id}').properties.phone.type].flat()).toContain('null')
    expect(body('put', '/api/profile').required ?? []).toEqual([])
    expect(Object.keys(body('put', '/api/profile').properties).sort()).toEqual(['fullName', 'language', 'notifications', 'phone'])
    const accept = body('post', '/api/auth/accept-invite')
    expect(accept.required).toEqual(expect.arrayContaining(['token', 'password']))
    expect(accept.properties.password.minLength).toBe(12)
    // What a member looks like never includes its password hash.
    const member = Object.values<{ schema: Schema }>(operation('post', '/api/members').responses!['201'].content)[0]!.schema
    expect(member.required).toEqual(expect.arrayContaining(['id', 'email', 'role', 'isConfirmed']))
    expect(member.properties).not.toHaveProperty('passwordHash')
    expect(member.properties).toHaveProperty('partnerName')
  })

  test('organization and email settings bodies carry the contract’s limits; the key is never answered', () => {
    const body = (method: string, path: string) => operation(method, path).requestBody!.content['application/json']!.schema
    const settings = body('put', '/api/organizations/settings')
    expect(settings.required ?? []).toEqual([])
    expect(settings.properties.slug).toMatchObject({ pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', maxLength: 63 })
    expect(settings.properties.shortCode).toMatchObject({ pattern: '^[A-Z]{4,6}$' })
    expect(settings.properties.maxConcurrency).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000 })
    expect(settings.properties.tcrStatus).toMatchObject({ maxLength: 64 })
    expect(settings.properties).not.toHaveProperty('phoneNumber')
    const email = body('put', '/api/organizations/settings/email')
    // The key may be left out: the one kept serves, for its own provider (docs/api/organization.md "Organization settings").
    expect(email.required).toEqual(['provider', 'fromEmail'])
    expect(email.properties.apiKey).toMatchObject({ minLength: 1, maxLength: 2000 })
    // The providers, and the shape of each one's key for the console's hint (docs/console.md), are their records'.
    expect(email.properties.provider.enum).toEqual([...EMAIL_PROVIDERS])
    for (const provider of EMAIL_PROVIDERS) {
      const { shape }: EmailKeyFormat = EMAIL_KEY_FORMATS[provider]
      expect(email.properties.apiKey['x-shapes'][provider]).toBe(shape)
    }
    const probe = body('post', '/api/organizations/settings/email/test')
    expect(probe.required).toEqual(['provider', 'fromEmail', 'toEmail'])
    for (const [method, path] of [
      ['get', '/api/organizations/settings/email'],
      ['put', '/api/organizations/settings/email'],
    ] as const) {
      const answer = Object.values<{ schema: Schema }>(operation(method, path).responses!['200'].content)[0]!.schema
      expect(Object.keys(answer.properties).sort()).toEqual(['apiKeyLast4', 'fromEmail', 'fromName', 'provider', 'updatedAt'])
    }
    const tested = Object.values<{ schema: Schema }>(
      operation('post', '/api/organizations/settings/email/test').responses!['200'].content,
    )[0]!.schema
    expect(tested.required).toEqual(['delivered'])
  })
})

describe('SMS in the OpenAPI document (docs/api/organization.md "SMS")', () => {
  const content = (response: any) => Object.values<{ schema: Schema }>(response.content)[0]!.schema

  test('a queued text answers its interactionId', () => {
    const answer = content(operation('post', '/api/needs/{id}/sms').responses!['202'])
    expect(answer.required).toEqual(['interactionId'])
    expect(answer.properties.interactionId).toMatchObject({ type: 'string', format: 'uuid' })
  })

  test('interactions carry the delivery status and the provider message id', () => {
    const item = content(operation('get', '/api/needs/{id}/interactions').responses!['200']).items
    expect(item.properties.deliveryStatus.enum).toEqual(['queued', 'sent', 'delivered', 'failed'])
    expect(item.properties.providerMessageId.type).toBe('string')
    expect(item.required).not.toContain('deliveryStatus')
  })

  test.each(ROUTES.filter((r) => r.access === 'twilio').map((r) => r.path))('%s takes a bounded set of string parameters', (path) => {
    const schema = operation('post', path).requestBody!.content[Object.keys(operation('post', path).requestBody!.content)[0]!]!.schema
    expect(schema.type).toBe('object')
    expect(schema.maxProperties).toBeLessThanOrEqual(100)
    for (const value of Object.values<Schema>(schema.patternProperties ?? {}))
      expect(value).toMatchObject({ type: 'string', maxLength: 5000 })
  })
})

describe('retrying a create in the OpenAPI document (docs/api/conventions.md "Retrying a create")', () => {
  test('the Idempotency-Key header is described once, and the four creates that take it refer to it', () => {
    expect(served.components.parameters.IdempotencyKey).toMatchObject({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: expect.stringContaining('24 hours'),
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
    })
    const taking = Object.entries(served.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, op]) => (op.parameters ?? []).some((p) => p.$ref === '#/components/parameters/IdempotencyKey'))
        .map(([method]) => `${method} ${path}`),
    )
    expect(taking.sort()).toEqual(['post /api/needs', 'post /api/needs/public', 'post /api/needs/{id}/notes', 'post /api/needs/{id}/sms'])
    expect(JSON.stringify(served.paths)).not.toContain('idempotency-key')
  })
})
