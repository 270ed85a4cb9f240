import { beforeAll, describe, expect, test } from 'bun:test'
import { expectBadRequest, expectProblem, linksOf, pageOfLink } from './helpers'
import { api, type Constituent, openConstituentsServer, register, search, tokens, world } from './constituents-support'

// docs/constituents.md (search), docs/api/conventions.md "Lists" and docs/api/access.md "Permissions": finding people by name, phone or
// email, over real HTTP. A search is how a caseworker finds someone already on file, so it must find them
// however they are typed, and never show what the caller may not search by or another organization's people.
openConstituentsServer()

describe('GET /api/constituents', () => {
  // Names and numbers used only here: 'jos' and 555-222 find nothing else in this organization.
  let jose: Constituent
  let josefina: Constituent
  let joskowitz: Constituent
  let london: Constituent
  let theirJose: Constituent

  beforeAll(async () => {
    world.clock.advance(60_000)
    jose = await register({ firstName: 'José', lastName: 'Núñez', phone: '+15552220001', email: 'Jose.Nunez@Example.org' })
    world.clock.advance(1000)
    josefina = await register({ firstName: 'Josefina', lastName: 'Park', phone: '+15552220002' })
    world.clock.advance(1000)
    joskowitz = await register({ firstName: 'Ana', lastName: 'Joskowitz' })
    world.clock.advance(1000)
    london = await register({ firstName: 'Bob', lastName: 'Smith', phone: '+442071234567' })
    // The same person on file with another organization: never found from this one.
    theirJose = await register(
      { firstName: 'José', lastName: 'Núñez', phone: '+15552220001', email: 'jose.nunez@example.org' },
      tokens.otherAdmin,
    )
  })

  const ids = async (query: string, token = tokens.admin) => {
    const response = await search(query, token)
    expect(response.status).toBe(200)
    return response.body.map((c) => c.id)
  }

  test('answers the plain array of constituents, newest first, with X-Total-Count and Link', async () => {
    const response = await search('jos')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('application/json')
    expect(response.body).toEqual([joskowitz, josefina, jose])
    expect(response.headers.get('x-total-count')).toBe('3')
    const links = linksOf(response)
    expect(pageOfLink(links.first)).toEqual({ page: 1, limit: 25 })
    expect(pageOfLink(links.last)).toEqual({ page: 1, limit: 25 })
    expect(links.next).toBeUndefined()
  })

  test('name prefixes match the first or the last name, whatever the case and accents', async () => {
    expect(await ids('jos')).toEqual([joskowitz.id, josefina.id, jose.id])
    expect(await ids('JOS')).toEqual([joskowitz.id, josefina.id, jose.id])
    expect(await ids('josé')).toEqual([josefina.id, jose.id])
    expect(await ids('JOSE')).toEqual([josefina.id, jose.id])
    expect(await ids('nun')).toEqual([jose.id])
    expect(await ids('NÚÑEZ')).toEqual([jose.id])
    expect(await ids('nunez')).toEqual([jose.id])
    expect(await ids('park')).toEqual([josefina.id])
  })

  test('every word must begin a name, in any order', async () => {
    expect(await ids('jos nun')).toEqual([jose.id])
    expect(await ids('Núñez José')).toEqual([jose.id])
    expect(await ids('josefina park')).toEqual([josefina.id])
    expect(await ids('jose park')).toEqual([josefina.id])
    expect(await ids('jose smith')).toEqual([])
  })

  test('a word inside a name, not at its start, does not match', async () => {
    expect(await ids('ose')).toEqual([])
    expect(await ids('nez')).toEqual([])
    expect(await ids('kowitz')).toEqual([])
  })

  test('phone digits match with or without +1 and whatever the punctuation', async () => {
    for (const query of [
      '+15552220001',
      '15552220001',
      '5552220001',
      '(555) 222-0001',
      '+1 555.222.0001',
      '1-555-222-0001',
      ' 555 222 0001 ',
    ]) {
      expect({ query, ids: await ids(query) }).toEqual({ query, ids: [jose.id] })
    }
    expect(await ids('555 222')).toEqual([josefina.id, jose.id])
    expect(await ids('+1 (555) 222')).toEqual([josefina.id, jose.id])
    expect(await ids('+442071234567')).toEqual([london.id])
    expect(await ids('4420')).toEqual([london.id])
  })

  test('phone digits match any part of the number, and nothing else', async () => {
    expect(await ids('2220001')).toEqual([jose.id])
    expect(await ids('555 999 0000')).toEqual([])
  })

  test('an email matches whole, case-insensitive', async () => {
    expect(await ids('jose.nunez@example.org')).toEqual([jose.id])
    expect(await ids('JOSE.NUNEZ@EXAMPLE.ORG')).toEqual([jose.id])
    expect(await ids('  Jose.Nunez@Example.org  ')).toEqual([jose.id])
    expect(await ids('jose.nunez@')).toEqual([])
    expect(await ids('nunez@example.org')).toEqual([])
  })

  test('no query, or an empty one, lists every constituent of the organization', async () => {
    for (const path of ['/api/constituents?limit=100', '/api/constituents?query=&limit=100', '/api/constituents?query=%20%20&limit=100']) {
      // Other tests add constituents too: read every page.
      const listed: string[] = []
      let total = 0
      for (let page = 1; page === 1 || listed.length < total; page++) {
        const response = await api.call<Constituent[]>('GET', `${path}&page=${page}`, { token: tokens.admin })
        expect(response.status).toBe(200)
        expect(response.body.length).toBeGreaterThan(0)
        listed.push(...response.body.map((c) => c.id))
        total = Number(response.headers.get('x-total-count'))
      }
      for (const mine of [jose, josefina, joskowitz, london]) expect(listed).toContain(mine.id)
      expect(listed).not.toContain(theirJose.id)
      expect(new Set(listed).size).toBe(total)
    }
  })

  test('pages with Link headers that keep the query', async () => {
    const page1 = await search('jos', tokens.admin, '&limit=2')
    const page2 = await search('jos', tokens.admin, '&limit=2&page=2')
    expect(page1.body.map((c) => c.id)).toEqual([joskowitz.id, josefina.id])
    expect(page2.body.map((c) => c.id)).toEqual([jose.id])
    for (const page of [page1, page2]) expect(page.headers.get('x-total-count')).toBe('3')
    const links = linksOf(page1)
    expect(Object.keys(links).sort()).toEqual(['first', 'last', 'next'])
    expect(pageOfLink(links.next)).toEqual({ page: 2, limit: 2 })
    expect(new URL(links.next!, 'http://x').searchParams.get('query')).toBe('jos')
    expect(new URL(links.next!, 'http://x').pathname).toBe('/api/constituents')
    const links2 = linksOf(page2)
    expect(Object.keys(links2).sort()).toEqual(['first', 'last', 'prev'])
    expect(pageOfLink(links2.prev)).toEqual({ page: 1, limit: 2 })
    // Past the end: an empty page, still counted.
    const past = await search('jos', tokens.admin, '&limit=2&page=5')
    expect(past.body).toEqual([])
    expect(past.headers.get('x-total-count')).toBe('3')
  })

  // An out-of-range page or limit is a 400 whose error path does not name the parameter (it says
  // "property"), on every list: reported, so only the status is held here for those.
  test.each([
    ['page=0', undefined],
    ['page=-1', undefined],
    ['page=x', 'query/page'],
    ['limit=0', undefined],
    ['limit=101', undefined],
    ['limit=ten', 'query/limit'],
    ['sort=name', undefined],
    [`query=${'a'.repeat(201)}`, 'query/query'],
  ])('?%s is a 400', async (query, field) => {
    const response = await api.call('GET', `/api/constituents?${query}`, { token: tokens.admin })
    expect(response.status).not.toBe(422)
    expectBadRequest(response, field)
  })

  test('search syntax in the query is taken as text, never interpreted', async () => {
    for (const query of ['"', 'jos*', 'NEAR(jos nun)', 'jos OR park', '-jos', "o'brien", '^jos', '%', '_', 'jos" OR "o']) {
      const response = await search(query)
      expect({ query, status: response.status }).toEqual({ query, status: 200 })
      expect(response.body.map((c) => c.id)).not.toContain(theirJose.id)
    }
    // Punctuation separates words; OR and NEAR are words like any other.
    expect(await ids('jos*')).toEqual([joskowitz.id, josefina.id, jose.id])
    expect(await ids('jos OR park')).toEqual([])
    expect(await ids('NEAR(jos nun)')).toEqual([])
  })

  test('searching by phone or email needs the permission to read them: 403 without it, whatever the name permissions', async () => {
    for (const token of [tokens.staff, tokens.agentA, tokens.intakeVolunteerA]) {
      for (const query of ['+15552220001', '555 222', 'jose.nunez@example.org']) expectProblem(await search(query, token), 403, 'Forbidden')
    }
    for (const token of [tokens.admin, tokens.partnerAdminA, tokens.piiStaff, tokens.contactStaff]) {
      expect(await ids('555 222', token)).toEqual([josefina.id, jose.id])
      expect(await ids('jose.nunez@example.org', token)).toEqual([jose.id])
    }
  })

  test('digits among name words are a phone search too: no confirming a number through a name search', async () => {
    // Name words and phone digits share one index, so "josé 5552220001" would tell whether José has that number.
    for (const query of ['jose 5552220001', 'jose 555', 'nunez 1555222', 'jos 5', 'ana 12']) {
      expectProblem(await search(query, tokens.staff), 403, 'Forbidden')
      expectProblem(await search(query, tokens.agentA), 403, 'Forbidden')
    }
    expect(await ids('jose 5552220001', tokens.contactStaff)).toEqual([jose.id])
    expect(await ids('jose 5559990000', tokens.contactStaff)).toEqual([])
    // Words that merely hold a digit are names.
    expect(await ids('jose 3rd', tokens.staff)).toEqual([])
  })

  test('caseworker roles and intake volunteers may search; a plain volunteer may not (403)', async () => {
    for (const token of [tokens.staff, tokens.piiStaff, tokens.partnerAdminA, tokens.agentA, tokens.intakeVolunteerA]) {
      expect(await ids('jos', token)).toEqual([joskowitz.id, josefina.id, jose.id])
    }
    expectProblem(await search('jos', tokens.volunteerA), 403, 'Forbidden')
  })

  test("another organization's constituents never show, by name, phone or email; and it sees only its own", async () => {
    for (const query of ['jos', '+15552220001', 'jose.nunez@example.org', '']) {
      expect(await ids(query)).not.toContain(theirJose.id)
    }
    expect(await ids('jos', tokens.otherAdmin)).toEqual([theirJose.id])
    expect(await ids('+15552220002', tokens.otherAdmin)).toEqual([])
    expect(await ids('bob smith', tokens.otherAdmin)).toEqual([])
  })

  test('without a token it is a 401', async () => {
    expectProblem(await api.call('GET', '/api/constituents?query=jos'), 401, 'Unauthorized')
  })
})
