import { describe, expect, test } from 'bun:test'
import { TEST_PASSWORD } from '../../support/world'
import { expectProblem } from './helpers'
import { api, openSettingsServer, other, tokens, world } from './organization-settings-support'
import { current, NON_ADMINS, putSettings, randomCode, randomSlug, SETTINGS } from './organization-settings-support'

// docs/api/organization.md "Organization settings", docs/api/conventions.md "Errors" and docs/api/access.md "Permissions": an
// organization's slug and short code,
// over real HTTP. Members log in by the slug and reference numbers carry the short code, so no two
// organizations may hold the same one, even when both ask at once; and no one else may change them.
openSettingsServer()

describe('PUT /api/organizations/settings', () => {
  test('a slug or short code of another organization is 409 Conflict; this organization keeps its own', async () => {
    const theirs = await current(tokens.otherAdmin)
    const theirCode = randomCode(6)
    expect((await putSettings({ name: theirs.name, slug: theirs.slug, shortCode: theirCode }, tokens.otherAdmin)).status).toBe(200)
    const before = await current()
    expectProblem(await putSettings({ name: 'Thief', slug: theirs.slug }), 409, 'Conflict')
    expectProblem(await putSettings({ name: 'Thief', slug: before.slug, shortCode: theirCode }), 409, 'Conflict')
    expect(await current()).toEqual(before)
    expect(await current(tokens.otherAdmin)).toMatchObject({ slug: theirs.slug, shortCode: theirCode })
  })

  test('its own slug and short code sent again are no conflict', async () => {
    const code = randomCode(5)
    const first = await putSettings({ name: 'Same', slug: randomSlug(), shortCode: code })
    expect(first.status).toBe(200)
    const again = await putSettings({ name: 'Same Again', slug: first.body.slug, shortCode: code })
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ slug: first.body.slug, shortCode: code, name: 'Same Again' })
  })

  test('two organizations taking one new slug at once: exactly one 200 and one 409', async () => {
    const [mine, theirs] = await Promise.all([current(), current(tokens.otherAdmin)])
    const slug = randomSlug('contested')
    const responses = await Promise.all([
      putSettings({ name: mine.name, slug }),
      putSettings({ name: theirs.name, slug }, tokens.otherAdmin),
    ])
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409])
    expectProblem(responses.find((r) => r.status === 409)!, 409, 'Conflict')
    const after = await Promise.all([current(), current(tokens.otherAdmin)])
    expect(after.filter((s) => s.slug === slug)).toHaveLength(1)
    const loser = after.find((s) => s.slug !== slug)!
    expect(loser.slug).toBe(loser.id === mine.id ? mine.slug : theirs.slug)
  })

  test('two organizations taking one new short code at once: exactly one 200 and one 409', async () => {
    const [mine, theirs] = await Promise.all([current(), current(tokens.otherAdmin)])
    const shortCode = randomCode(6)
    const responses = await Promise.all([
      putSettings({ name: mine.name, slug: mine.slug, shortCode }),
      putSettings({ name: theirs.name, slug: theirs.slug, shortCode }, tokens.otherAdmin),
    ])
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409])
    const after = await Promise.all([current(), current(tokens.otherAdmin)])
    expect(after.filter((s) => s.shortCode === shortCode)).toHaveLength(1)
  })

  test('a short code change changes the prefix of the next reference numbers only', async () => {
    const settings = await current()
    await putSettings({ name: settings.name, slug: settings.slug, shortCode: null })
    const createNeed = async () => {
      const response = await api.call<{ id: string; referenceNumber: string }>('POST', '/api/needs', {
        token: tokens.admin,
        body: { partnerId: world.defaultPartner.id },
      })
      expect(response.status).toBe(201)
      return response.body
    }
    const before = await createNeed()
    expect(before.referenceNumber).toMatch(/^REQ-\d+$/)
    const n = Number(before.referenceNumber.split('-')[1])

    const shortCode = randomCode(6)
    expect((await putSettings({ name: settings.name, slug: settings.slug, shortCode })).status).toBe(200)
    const after = await createNeed()
    expect(after.referenceNumber).toBe(`${shortCode}-${n + 1}`)

    // The older need keeps its number, and both are found by it.
    const old = await api.call('GET', `/api/needs/${before.referenceNumber.toLowerCase()}`, { token: tokens.admin })
    expect(old.status).toBe(200)
    expect(old.body).toMatchObject({ id: before.id, referenceNumber: before.referenceNumber })
    expect((await api.call('GET', `/api/needs/${after.referenceNumber}`, { token: tokens.admin })).body.id).toBe(after.id)

    expect((await putSettings({ name: settings.name, slug: settings.slug, shortCode: null })).status).toBe(200)
    expect((await createNeed()).referenceNumber).toBe(`REQ-${n + 2}`)
  })

  test('after a slug change, logging in with the new slug works and with the old one does not', async () => {
    const settings = await current()
    const email = (await api.call('GET', '/api/profile', { token: tokens.admin })).body.email
    const slug = randomSlug('renamed')
    expect((await putSettings({ name: settings.name, slug })).status).toBe(200)
    const login = (organizationSlug: string) =>
      api.call('POST', '/api/auth/login', { body: { email, password: TEST_PASSWORD, organizationSlug } })
    expect((await login(slug)).status).toBe(200)
    expectProblem(await login(settings.slug), 401, 'Unauthorized')
  })

  test('is 403 for every other role, and nothing changes', async () => {
    const before = await current()
    for (const name of NON_ADMINS) {
      expectProblem(await putSettings({ name: 'Taken Over', slug: randomSlug() }, tokens[name]), 403, 'Forbidden')
    }
    expect(await current()).toEqual(before)
  })

  test('another organization’s admin changes only its own organization', async () => {
    const mine = await current()
    const theirs = await current(tokens.otherAdmin)
    const response = await putSettings({ name: 'Their New Name', slug: theirs.slug, maxConcurrency: 99 }, tokens.otherAdmin)
    expect(response.status).toBe(200)
    expect(response.body.id).toBe(other.organizationId)
    expect(await current()).toEqual(mine)
  })

  test('without a token it is 401, before the body is looked at', async () => {
    expectProblem(await api.call('PUT', SETTINGS, { body: { name: 'N', slug: randomSlug() } }), 401, 'Unauthorized')
    expectProblem(await api.call('PUT', SETTINGS, { body: { slug: 'Bad_Slug' } }), 401, 'Unauthorized')
  })
})
