import { beforeAll, describe, expect, test } from 'bun:test'
import type { Partner } from '../../../src/domain/partners/partner'
import { linksOf, pageOfLink } from './helpers'
import { api, createNeed, openNeedsServer, partnerA, tokens, world, type Need } from './needs-support'

// docs/api/needs.md "Search" and docs/api/access.md "Permissions": `q` and `sort` on the list of needs, over real HTTP.
openNeedsServer()

describe('GET /api/needs?q=&sort=', () => {
  let searching: Partner
  const needs: Record<string, Need> = {}

  beforeAll(async () => {
    searching = await world.partner({ name: 'Searching' })
    // Due by hand before now, oldest first: all three are overdue.
    const hoursAgo = (hours: number) => new Date(world.clock.now().getTime() - hours * 3_600_000).toISOString()
    world.clock.advance(1000)
    needs.rent = await createNeed({
      partnerId: searching.id,
      dueDate: hoursAgo(3),
      customFields: { description: 'Help with the winter rent' },
    })
    world.clock.advance(1000)
    needs.named = await createNeed({
      partnerId: searching.id,
      status: 'IN_PROGRESS',
      dueDate: hoursAgo(2),
      customFields: { description: 'Winter coats', firstName: 'Mariela', lastName: 'Quispe' },
    })
    world.clock.advance(1000)
    needs.secret = await createNeed({
      partnerId: searching.id,
      isConfidential: true,
      dueDate: hoursAgo(1),
      customFields: { description: 'Winter eviction' },
    })
    needs.ofA = await createNeed({ partnerId: partnerA.id, customFields: { description: 'Winter rent', firstName: 'Mariela' } })
  })

  const list = (query: string, token = tokens.admin) => api.call<Need[]>('GET', `/api/needs?partnerId=${searching.id}&${query}`, { token })
  const refs = (response: { body: Need[] }) => response.body.map((n) => n.referenceNumber)

  test('finds needs by words of the description, the name and the reference, with an exact total and its links', async () => {
    const response = await list('q=Winter')
    expect(refs(response)).toEqual([needs.secret, needs.named, needs.rent].map((n) => n!.referenceNumber))
    expect(response.headers.get('x-total-count')).toBe('3')
    expect(response.headers.get('x-total-count-is-lower-bound')).toBeNull()
    expect(refs(await list('q=mariela%20quis'))).toEqual([needs.named!.referenceNumber])
    expect(refs(await list(`q=${needs.rent!.referenceNumber}`))).toEqual([needs.rent!.referenceNumber])
    expect(refs(await list('q=winter&status=IN_PROGRESS'))).toEqual([needs.named!.referenceNumber])
    const paged = await list('q=winter&limit=1&page=2')
    expect(refs(paged)).toEqual([needs.named!.referenceNumber])
    const links = linksOf(paged)
    expect(pageOfLink(links.last)).toEqual({ page: 3, limit: 1 })
    expect(new URL(links.next!, 'http://x').searchParams.get('q')).toBe('winter')
  })

  test('finds by what the caller may read only: a confidential need’s description, names, its own partner', async () => {
    expect(refs(await list('q=eviction', tokens.staff))).toEqual([])
    expect(refs(await list('q=eviction', tokens.admin))).toEqual([needs.secret!.referenceNumber])
    const volunteer = await api.call<Need[]>('GET', '/api/needs?q=mariela', { token: tokens.volunteerA })
    expect(volunteer.body).toEqual([])
    const agent = await api.call<Need[]>('GET', '/api/needs?q=mariela', { token: tokens.agentA })
    expect(refs(agent)).toEqual([needs.ofA!.referenceNumber])
  })

  test('finds a need by its person on file’s name, as the person is now, only for callers who may read names', async () => {
    const person = await api.call<{ id: string }>('POST', '/api/constituents', {
      token: tokens.admin,
      body: { firstName: 'Anatolia', lastName: 'Wojcik' },
    })
    expect(person.status).toBe(201)
    const linked = await createNeed({ partnerId: partnerA.id, constituentId: person.body.id, customFields: { description: 'Firewood' } })
    const found = async (q: string, token: string | undefined) =>
      refs(await api.call<Need[]>('GET', `/api/needs?q=${encodeURIComponent(q)}`, { token }))

    expect(linked.customFields).toEqual({ description: 'Firewood' })
    expect(await found('anatol wojc', tokens.admin)).toEqual([linked.referenceNumber])
    expect(await found('wojcik', tokens.agentA)).toEqual([linked.referenceNumber])
    // The volunteer reads the need, not names: found by its description, never by its person's name.
    expect(await found('firewood', tokens.volunteerA)).toEqual([linked.referenceNumber])
    expect(await found('wojcik', tokens.volunteerA)).toEqual([])
    expect(await found('wojcik', tokens.otherAdmin)).toEqual([])
    const renamed = await api.call('PUT', `/api/constituents/${person.body.id}`, { token: tokens.admin, body: { lastName: 'Nowak' } })
    expect(renamed.status).toBe(200)
    expect(await found('wojcik', tokens.admin)).toEqual([])
    expect(await found('nowak firewood', tokens.admin)).toEqual([linked.referenceNumber])
  })

  test('sorts by createdAt, dueDate or status either way; overdue is soonest due first unless sorted', async () => {
    const newestFirst = [needs.secret, needs.named, needs.rent].map((n) => n!.referenceNumber)
    expect(refs(await list('sort=createdAt'))).toEqual([...newestFirst].reverse())
    expect(refs(await list('sort=-createdAt'))).toEqual(newestFirst)
    expect(refs(await list('sort=dueDate'))).toEqual([...newestFirst].reverse())
    expect(refs(await list('sort=-status'))).toEqual([
      needs.named!.referenceNumber,
      needs.secret!.referenceNumber,
      needs.rent!.referenceNumber,
    ])
    expect(refs(await list('overdue=true'))).toEqual([...newestFirst].reverse())
    expect(refs(await list('overdue=true&sort=-dueDate'))).toEqual(newestFirst)
  })
})
