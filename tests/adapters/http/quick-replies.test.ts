import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import { expectBadRequest, expectProblem } from './helpers'

// docs/api/organization.md "Quick replies": an organization's saved texts, read by whoever may text, replaced whole
// by an org_admin, over real HTTP. Who may call each route is the permission matrix's (permissions-matrix.test.ts).
let api: TestServer
let admin: string
beforeAll(async () => {
  api = await startTestServer()
  admin = await api.tokenFor(api.world, 'org_admin')
})
afterAll(() => api.stop())

const PATH = '/api/organizations/quick-replies'
const READY = {
  label: 'Box ready',
  body: { en: 'Your box {reference} is ready at {partner}.', es: 'Su caja {reference} está lista en {partner}.' },
}
const put = (body: unknown, token = admin) => api.call<{ replies: unknown[] }>('PUT', PATH, { token, body })
const get = (token = admin) => api.call<{ replies: unknown[] }>('GET', PATH, { token })

describe('quick replies', () => {
  test('none at first; an org_admin replaces them, trimmed; a texting member reads them; [] empties them', async () => {
    // An organization of its own: the other tests of the file, in any order, write the first one's.
    const [mine, other] = [await api.world.otherOrganization(), await api.world.otherOrganization()]
    const mineAdmin = await api.tokenFor(mine, 'org_admin')
    expect((await get(mineAdmin)).body).toEqual({ replies: [] })

    const saved = await put(
      {
        replies: [
          { ...READY, label: '  Box ready ' },
          { label: 'Spanish only', body: { es: ' Llámenos ' } },
        ],
      },
      mineAdmin,
    )
    expect(saved.status).toBe(200)
    const replies = [READY, { label: 'Spanish only', body: { es: 'Llámenos' } }]
    expect(saved.body).toEqual({ replies })
    const communicator = await api.tokenFor(mine, 'staff', { profiles: ['sms_communicator'] })
    expect((await get(communicator)).body).toEqual({ replies })
    // Another organization's are its own; the settings do not carry them.
    expect((await get(await api.tokenFor(other, 'org_admin'))).body).toEqual({ replies: [] })
    expect((await api.call('GET', '/api/organizations/settings', { token: mineAdmin })).body).not.toHaveProperty('quickReplies')

    expect((await put({ replies: [] }, mineAdmin)).body).toEqual({ replies: [] })
    expect((await get(mineAdmin)).body).toEqual({ replies: [] })
  })

  test.each<[string, unknown, string]>([
    ['a label repeated', [READY, { ...READY, body: { en: 'Again' } }], '/replies/1/label'],
    ['an empty label', [{ ...READY, label: '  ' }], '/replies/0/label'],
    ['a label over 60 characters', [{ ...READY, label: 'x'.repeat(61) }], '/replies/0/label'],
    ['no text in either language', [{ label: 'Empty', body: {} }], '/replies/0/body'],
    ['a text over 1,600 characters', [{ label: 'Long', body: { en: 'x'.repeat(1601) } }], '/replies/0/body/en'],
    ['a blank text', [{ label: 'Blank', body: { es: '   ' } }], '/replies/0/body/es'],
    ['an unknown placeholder', [{ label: 'Name', body: { en: 'Hello {firstName}' } }], '/replies/0/body/en'],
    ['a language not offered', [{ label: 'French', body: { fr: 'Bonjour' } }], '/replies/0/body'],
    ['more than 50 replies', Array.from({ length: 51 }, (_, i) => ({ label: `Reply ${i}`, body: { en: 'Hi' } })), '/replies'],
  ])('%s is 400 naming the field, and nothing is kept', async (_name, replies, field) => {
    await put({ replies: [READY] })
    expectBadRequest(await put({ replies }), field)
    expect((await get()).body).toEqual({ replies: [READY] })
  })

  test('staff without sms_communicator may not read them; only org_admin replaces them', async () => {
    expectProblem(await get(await api.tokenFor(api.world, 'staff')), 403, 'Forbidden')
    const communicator = await api.tokenFor(api.world, 'staff', { profiles: ['sms_communicator'] })
    expectProblem(await put({ replies: [READY] }, communicator), 403, 'Forbidden')
  })
})
