import { describe, expect, test } from 'bun:test'
import { expectProblem, getPage, postForm } from './helpers'
import { api, current, openSettingsServer, putSettings, randomSlug, tokens } from './organization-settings-support'

// docs/api/organization.md "Organization settings" and docs/api/pages.md "Pages": a slug an organization leaves stays
// its own, over real HTTP. Its printed and embedded intake links keep working, and no other organization may take it.
openSettingsServer()

const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' }

/** Gives this organization a new slug and answers the one it left. */
async function renamed(): Promise<{ former: string; slug: string }> {
  const former = (await current()).slug
  const slug = randomSlug('renamed')
  expect((await putSettings({ slug })).status).toBe(200)
  return { former, slug }
}

describe('a slug the organization left', () => {
  test('its intake page answers 308 to the same page under the new slug, the query kept, not cached', async () => {
    const { former, slug } = await renamed()

    const response = await fetch(`${api.url}/intake/${former}?lang=es`, { redirect: 'manual' })
    expect(response.status).toBe(308)
    expect(response.headers.get('location')).toBe(`/intake/${slug}?lang=es`)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const followed = await getPage(api, `/intake/${former}`)
    expect(followed.status).toBe(200)
    expect(followed.text).toContain(`action="/intake/${slug}"`)
  })

  test('a form posted to it is posted again under the new slug (308) and recorded', async () => {
    const { former, slug } = await renamed()

    const moved = await postForm(api, `/intake/${former}`, { description: 'Food for the week' }, SAME_ORIGIN, 'manual')
    expect(moved.status).toBe(308)
    expect(moved.headers.get('location')).toBe(`/intake/${slug}`)
    const followed = await postForm(api, `/intake/${former}`, { description: 'Food for the week' }, SAME_ORIGIN)
    expect(followed.status).toBe(200)
    expect(followed.text).toContain('class="reference"')
  })

  test('the public intake API takes it as organizationSlug', async () => {
    const { former } = await renamed()
    const { id } = await current()

    const response = await api.call<{ organizationId: string }>('POST', '/api/needs/public', {
      body: { organizationSlug: former, description: 'Food for the week' },
    })
    expect(response.status).toBe(201)
    expect(response.body.organizationId).toBe(id)
  })

  test('no other organization may take it (409); this one may take it back', async () => {
    const { former, slug } = await renamed()
    const theirs = await current(tokens.otherAdmin)

    expectProblem(await putSettings({ slug: former }, tokens.otherAdmin), 409, 'Conflict')
    expect((await current(tokens.otherAdmin)).slug).toBe(theirs.slug)

    expect((await putSettings({ slug: former })).body.slug).toBe(former)
    // The slug just left is held now: the other organization may not take that one either.
    expectProblem(await putSettings({ slug }, tokens.otherAdmin), 409, 'Conflict')
    expect((await getPage(api, `/intake/${former}`)).status).toBe(200)
  })
})

describe('who may frame the intake page', () => {
  test("the organization's formOrigins, on the form and on its answers; no one frames the other pages", async () => {
    const { slug } = await current()
    expect((await getPage(api, `/intake/${slug}`)).headers.get('content-security-policy')).toContain("frame-ancestors 'none'")

    await putSettings({ formOrigins: ['https://pantry.example.net', 'https://clinic.example.org:8443'] })
    const framed = 'frame-ancestors https://pantry.example.net https://clinic.example.org:8443'
    expect((await getPage(api, `/intake/${slug}`)).headers.get('content-security-policy')).toEndWith(framed)
    const sent = await postForm(api, `/intake/${slug}`, { description: 'Food for the week' }, SAME_ORIGIN)
    expect(sent.headers.get('content-security-policy')).toEndWith(framed)
    const refused = await postForm(api, `/intake/${slug}`, { description: '' }, SAME_ORIGIN)
    expect(refused.status).toBe(400)
    expect(refused.headers.get('content-security-policy')).toEndWith(framed)

    for (const path of ['/intake/no-such-organization', '/forgot-password', '/']) {
      expect((await getPage(api, path)).headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    }
    await putSettings({ formOrigins: [] })
  })
})
