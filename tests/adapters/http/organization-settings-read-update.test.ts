import { describe, expect, test } from 'bun:test'
import { DEFAULT_AUDIT_RETENTION_DAYS } from '../../../src/domain/audit/audit-event'
import { expectBadRequest, expectProblem } from './helpers'
import { api, openSettingsServer, other, tokens, world } from './organization-settings-support'
import { current, getSettings, NON_ADMINS, organizationWithAdmin, putSettings, randomCode } from './organization-settings-support'
import { randomSlug, SETTINGS, type Settings, UNSET } from './organization-settings-support'

// docs/api/organization.md "Organization settings", docs/api/conventions.md "Errors" and docs/api/access.md "Permissions";
// docs/privacy.md (retention): reading and
// changing an organization's settings, over real HTTP. Only its org_admin may, and a refused change must
// leave every setting as it was.
openSettingsServer()

describe('GET /api/organizations/settings', () => {
  test('answers the organization of the org_admin: a new one has no short code, maxConcurrency 5 and the default audit retention', async () => {
    // A new organization of its own: other tests change this file's organization, in any order.
    const fresh = await world.otherOrganization()
    const response = await getSettings(await api.tokenFor(fresh, 'org_admin'))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('application/json')
    expect(Object.keys(response.body).sort()).toEqual([
      'appOrigins',
      'auditRetentionDays',
      'confirmRequests',
      'defaultCountry',
      'digestHour',
      'digestTimeZone',
      'formOrigins',
      'id',
      'maxConcurrency',
      'name',
      'publicBaseUrl',
      'publishDirectory',
      'slug',
      'timeZone',
    ])
    expect(response.body).toMatchObject({
      id: fresh.organizationId,
      maxConcurrency: 5,
      auditRetentionDays: DEFAULT_AUDIT_RETENTION_DAYS,
      ...UNSET,
    })
    expect(response.body.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
  })

  test('is 403 for every other role, profiles or not', async () => {
    for (const name of NON_ADMINS) expectProblem(await getSettings(tokens[name]), 403, 'Forbidden')
  })

  test('another organization’s admin reads its own organization, never this one', async () => {
    const theirs = await current(tokens.otherAdmin)
    const mine = await current()
    expect(theirs.id).toBe(other.organizationId)
    expect(theirs.slug).not.toBe(mine.slug)
  })

  test('without a token it is 401', async () => {
    expectProblem(await api.call('GET', SETTINGS), 401, 'Unauthorized')
  })
})

describe('PUT /api/organizations/settings', () => {
  test('replaces name, slug, shortCode, maxConcurrency and tcrStatus; GET answers the same', async () => {
    const slug = randomSlug('food-bank')
    const shortCode = randomCode(5)
    const response = await putSettings({
      name: '  Food Bank of the Valley ',
      slug,
      shortCode,
      maxConcurrency: 12,
      tcrStatus: 'VERIFIED',
      auditRetentionDays: DEFAULT_AUDIT_RETENTION_DAYS,
    })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      id: world.organizationId,
      name: 'Food Bank of the Valley',
      slug,
      shortCode,
      maxConcurrency: 12,
      tcrStatus: 'VERIFIED',
      auditRetentionDays: DEFAULT_AUDIT_RETENTION_DAYS,
      ...UNSET,
    })
    expect(await current()).toEqual(response.body)
  })

  test('shortCode, maxConcurrency and tcrStatus left out stay; null clears shortCode and tcrStatus', async () => {
    const slug = randomSlug()
    const shortCode = randomCode(4)
    await putSettings({
      name: 'Kept',
      slug,
      shortCode,
      maxConcurrency: 7,
      tcrStatus: 'IN_PROGRESS',
      auditRetentionDays: DEFAULT_AUDIT_RETENTION_DAYS,
    })
    const kept = await putSettings({ name: 'Kept Again', slug })
    expect(kept.status).toBe(200)
    expect(kept.body).toEqual({
      id: world.organizationId,
      name: 'Kept Again',
      slug,
      shortCode,
      maxConcurrency: 7,
      tcrStatus: 'IN_PROGRESS',
      auditRetentionDays: DEFAULT_AUDIT_RETENTION_DAYS,
      ...UNSET,
    })
    const cleared = await putSettings({ name: 'Cleared', slug, shortCode: null, tcrStatus: null })
    expect(cleared.status).toBe(200)
    expect(cleared.body).toEqual({
      id: world.organizationId,
      name: 'Cleared',
      slug,
      maxConcurrency: 7,
      auditRetentionDays: DEFAULT_AUDIT_RETENTION_DAYS,
      ...UNSET,
    })
    expect(await current()).toEqual(cleared.body)
  })

  test('the limits themselves are accepted: slug of 63, shortCode of 4 and 6, maxConcurrency 1 and 1000, tcrStatus of 64', async () => {
    const slug63 = `${crypto.randomUUID().replaceAll('-', '')}${'a'.repeat(31)}`
    expect(slug63).toHaveLength(63)
    const accepted = [
      { name: 'N', slug: slug63 },
      { name: 'N', slug: randomSlug(), shortCode: randomCode(4), maxConcurrency: 1 },
      { name: 'N', slug: randomSlug(), shortCode: randomCode(6), maxConcurrency: 1000, tcrStatus: 'x'.repeat(64) },
    ]
    for (const body of accepted) {
      const response = await putSettings(body)
      expect({ status: response.status, body: response.body }).toMatchObject({ status: 200, body })
    }
  })

  test.each([
    ['a slug with an underscore', { slug: 'bad_slug' }, '/slug'],
    ['a slug with capitals', { slug: 'Food-Bank' }, '/slug'],
    ['a slug starting with a hyphen', { slug: '-food' }, '/slug'],
    ['a slug ending with a hyphen', { slug: 'food-' }, '/slug'],
    ['a slug with a double hyphen', { slug: 'food--bank' }, '/slug'],
    ['a slug with a space', { slug: 'food bank' }, '/slug'],
    ['an empty slug', { slug: '' }, '/slug'],
    ['a slug of 64 characters', { slug: 'a'.repeat(64) }, '/slug'],
    ['shortCode AB (too short)', { shortCode: 'AB' }, '/shortCode'],
    ['shortCode ABC', { shortCode: 'ABC' }, '/shortCode'],
    ['shortCode of 7 letters', { shortCode: 'ABCDEFG' }, '/shortCode'],
    ['a lowercase shortCode', { shortCode: 'food' }, '/shortCode'],
    ['a shortCode with a digit', { shortCode: 'FO0D' }, '/shortCode'],
    ['an empty shortCode', { shortCode: '' }, '/shortCode'],
    ['maxConcurrency 0', { maxConcurrency: 0 }, '/maxConcurrency'],
    ['maxConcurrency 1001', { maxConcurrency: 1001 }, '/maxConcurrency'],
    ['maxConcurrency "5" as a string', { maxConcurrency: '5' }, '/maxConcurrency'],
    ['maxConcurrency 2.5', { maxConcurrency: 2.5 }, '/maxConcurrency'],
    ['maxConcurrency -1', { maxConcurrency: -1 }, '/maxConcurrency'],
    ['maxConcurrency null', { maxConcurrency: null }, '/maxConcurrency'],
    ['tcrStatus over 64 characters', { tcrStatus: 'x'.repeat(65) }, '/tcrStatus'],
    ['tcrStatus as a number', { tcrStatus: 3 }, '/tcrStatus'],
    ['an empty name', { name: '' }, '/name'],
    ['a blank name', { name: '   ' }, '/name'],
    ['a name over 200 characters', { name: 'x'.repeat(201) }, '/name'],
    ['phoneNumber (read-only)', { phoneNumber: '+15551234567' }, '/phoneNumber'],
    ["publicBaseUrl (read-only, the deployment's)", { publicBaseUrl: 'https://elsewhere.example' }, '/publicBaseUrl'],
    ['an id', { id: '2d9f4b1e-8c7a-4f3e-9b2d-1a6c5e4f3a2b' }, '/id'],
    ['an unknown property', { timezone: 'UTC' }, '/timezone'],
  ])('%s is 400 Invalid request naming the field, and nothing changes', async (_name, fields, field) => {
    const before = await current()
    const body = JSON.parse(JSON.stringify({ name: 'Renamed', slug: randomSlug(), ...fields }))
    const response = await putSettings(body)
    expect(response.status).not.toBe(422)
    expectBadRequest(response, field, 'Bad request')
    expect(await current()).toEqual(before)
  })

  test('a PUT is a partial update: what is left out stays, null clears a clearable field', async () => {
    const shortCode = randomCode(5)
    const before = await current()
    expect((await putSettings({ shortCode, tcrStatus: 'VERIFIED' })).status).toBe(200)
    expect(await current()).toEqual({ ...before, shortCode, tcrStatus: 'VERIFIED' })

    const renamed = await putSettings({ name: 'Only the name' })
    expect(renamed.body).toEqual({ ...before, name: 'Only the name', shortCode, tcrStatus: 'VERIFIED' })
    const cleared = await putSettings({ shortCode: null })
    const { shortCode: _cleared, ...withoutShortCode } = before
    expect(cleared.body).toEqual({ ...withoutShortCode, name: 'Only the name', tcrStatus: 'VERIFIED' })
    expect(await current()).toEqual(cleared.body)
    expect((await putSettings({})).body).toEqual(cleared.body)
  })

  test('a body that is not JSON is 400 Invalid request too', async () => {
    expectBadRequest(await api.call('PUT', SETTINGS, { token: tokens.admin, raw: '{"name":' }), undefined, 'Bad request')
  })
})

describe('retention settings (docs/privacy.md)', () => {
  test('constituentRetentionDays and needTextRetentionDays: 30 days at least, answered once set, null stops them', async () => {
    const { world: fresh, token } = await organizationWithAdmin()
    for (const field of ['constituentRetentionDays', 'needTextRetentionDays']) {
      for (const bad of [29, 36501, 30.5, '90']) expectBadRequest(await putSettings({ [field]: bad }, token), `/${field}`)
      expect((await current(token))[field as keyof Settings]).toBeUndefined()
    }

    expect((await putSettings({ constituentRetentionDays: 30, needTextRetentionDays: 365 }, token)).body).toMatchObject({
      constituentRetentionDays: 30,
      needTextRetentionDays: 365,
    })
    expect(await current(token)).toMatchObject({ constituentRetentionDays: 30, needTextRetentionDays: 365 })

    const stopped = (await putSettings({ constituentRetentionDays: null }, token)).body
    expect(stopped).not.toHaveProperty('constituentRetentionDays')
    expect(stopped).toMatchObject({ needTextRetentionDays: 365 })
    const { items } = await fresh.useCases.audit.list.execute(
      fresh.admin,
      { recordType: 'organization', action: 'update' },
      { page: 1, limit: 10 },
    )
    expect(items.map((e) => e.fields)).toEqual([['constituentRetentionDays'], ['constituentRetentionDays', 'needTextRetentionDays']])
  })
})
