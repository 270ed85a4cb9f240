import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import { getPage } from './helpers'

// docs/api/pages.md "Pages": "Where to get help" on the public intake form, the organization's active published services.

let api: TestServer
let admin: string
let slug: string

beforeAll(async () => {
  api = await startTestServer()
  admin = await api.tokenFor(api.world, 'org_admin')
  slug = (await api.world.repositories.organizations.findById(api.world.organizationId))!.slug
  const pantry = await api.world.partner({ name: 'Pantry' })
  const create = (body: Record<string, unknown>) =>
    api.call('POST', '/api/services', { token: admin, body: { partnerId: pantry.id, ...body } })
  await create({
    name: 'Food pantry',
    languages: ['en', 'es'],
    schedule: [{ byDay: ['TU', 'TH'], opensAt: '09:00', closesAt: '17:00' }],
    phone: '503 555 0142',
  })
  await create({ name: 'Night shelter', status: 'inactive' })
  const archived = await create({ name: 'Winter coats' })
  await api.call('PUT', `/api/services/${archived.body.id}`, { token: admin, body: { isArchived: true } })
})
afterAll(() => api.stop())

const publish = (on: boolean) => api.call('PUT', '/api/organizations/settings', { token: admin, body: { publishDirectory: on } })

test('an organization that does not publish its directory shows no services', async () => {
  await publish(false)
  const page = await getPage(api, `/intake/${slug}`)
  expect(page.status).toBe(200)
  expect(page.text).not.toContain('Where to get help')
  expect(page.text).not.toContain('Food pantry')
})

test('once published, the active services with their hours, languages and phone, in the page’s language', async () => {
  await publish(true)
  const english = await getPage(api, `/intake/${slug}`)
  expect(english.text).toContain('<h2 id="help-title">Where to get help</h2>')
  expect(english.text).toContain('Food pantry')
  expect(english.text).toContain('Tuesday and Thursday 09:00–17:00')
  expect(english.text).toContain('English and Spanish')
  expect(english.text).toContain('<a href="tel:+15035550142">')
  for (const hidden of ['Night shelter', 'Winter coats']) expect(english.text).not.toContain(hidden)
  const spanish = await getPage(api, `/intake/${slug}?lang=es`)
  expect(spanish.text).toContain('Dónde pedir ayuda')
  expect(spanish.text).toContain('martes y jueves 09:00–17:00')
  expect(spanish.text).toContain('Inglés y Español')
})
