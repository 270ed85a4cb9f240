import { beforeEach, describe, expect, test } from 'bun:test'
import type { Actor } from '../../../src/domain/auth/actor'
import { ForbiddenError, InvalidError, NotFoundError } from '../../../src/domain/errors'
import type { Partner } from '../../../src/domain/partners/partner'
import { aFile } from '../../support/builders'
import { createWorld, type World } from '../../support/world'
import { failureOf, pathsOf } from '../failure-of'

// docs/api/services.md: what partners offer, on the in-memory adapters.
let world: World
let pantry: Partner
let pantryAdmin: Actor
beforeEach(async () => {
  world = await createWorld()
  pantry = await world.partner({ name: 'Pantry' })
  pantryAdmin = await world.member('partner_admin', { partnerId: pantry.id })
})

const ALL = { page: 1, limit: 100 }
const services = () => world.useCases.services
const importTerms = (csv: string, vocabulary = 'open-eligibility') =>
  services().importTerms.execute(world.admin, vocabulary, aFile(csv), { dryRun: false })

describe('services', () => {
  test('creates a service with its defaults, kept as the rules say: name trimmed, languages canonical, days in order, phone in E.164', async () => {
    const created = await services().create.execute(world.admin, {
      partnerId: pantry.id,
      name: '  Food pantry ',
      languages: ['EN', 'es-mx', 'en'],
      schedule: [{ byDay: ['FR', 'MO'], opensAt: '09:00', closesAt: '17:00' }],
      phone: '(503) 555-0142',
      address: { address1: ' 1 Main St', city: 'Portland', stateProvince: 'OR', postalCode: '97201', country: 'US' },
    })
    expect(created).toMatchObject({
      partnerId: pantry.id,
      name: 'Food pantry',
      status: 'active',
      acceptingReferrals: true,
      isArchived: false,
      languages: ['en', 'es-MX'],
      schedule: [{ byDay: ['MO', 'FR'], opensAt: '09:00', closesAt: '17:00' }],
      phone: '+15035550142',
      address: { address1: '1 Main St' },
      taxonomyTerms: [],
    })
    expect(created.updatedAt).toEqual(created.createdAt)
    expect(await services().get.execute(await world.member('volunteer'), created.id)).toEqual(created)
  })

  test('refuses each field against its rule, naming it', async () => {
    const error = await failureOf(
      services().create.execute(world.admin, {
        partnerId: pantry.id,
        name: ' ',
        status: 'open' as never,
        languages: ['not a tag'],
        schedule: [{ byDay: ['MO'], opensAt: '17:00', closesAt: '09:00' }],
        email: 'nobody',
        phone: '12',
        address: { address1: '1 Main St', city: '', stateProvince: 'OR', postalCode: '97201', country: 'XX' },
      }),
      InvalidError,
    )
    expect(pathsOf(error)).toEqual(['/address/city', '/address/country', '/email', '/languages', '/name', '/phone', '/schedule', '/status'])
    const unknownPartner = await failureOf(
      services().create.execute(world.admin, { partnerId: crypto.randomUUID(), name: 'X' }),
      InvalidError,
    )
    expect(pathsOf(unknownPartner)).toEqual(['/partnerId'])
  })

  test('an update changes what it gives, clears what is null, and moves updatedAt only when something changed', async () => {
    const created = await services().create.execute(world.admin, {
      partnerId: pantry.id,
      name: 'Pantry',
      fees: 'None',
      url: 'https://p.example.org',
    })
    world.clock.advance(60_000)
    const same = await services().update.execute(world.admin, created.id, { name: 'Pantry' })
    expect(same.updatedAt).toEqual(created.updatedAt)
    const updated = await services().update.execute(world.admin, created.id, {
      status: 'temporarily closed',
      fees: null,
      acceptingReferrals: false,
    })
    expect(updated).not.toHaveProperty('fees')
    expect(updated).toMatchObject({ status: 'temporarily closed', acceptingReferrals: false, url: 'https://p.example.org' })
    expect(updated.updatedAt).toEqual(world.clock.now())
    const archived = await services().update.execute(world.admin, created.id, { isArchived: true })
    expect(archived.isArchived).toBe(true)
  })

  test('a partner_admin manages its own partner’s services only; other roles read them all, and none manage', async () => {
    const shelter = await world.partner({ name: 'Shelter' })
    const own = await services().create.execute(pantryAdmin, { partnerId: pantry.id, name: 'Pantry hours' })
    world.clock.advance(1000)
    const theirs = await services().create.execute(world.admin, { partnerId: shelter.id, name: 'Beds' })
    await failureOf(services().create.execute(pantryAdmin, { partnerId: shelter.id, name: 'Not mine' }), ForbiddenError)
    await failureOf(services().update.execute(pantryAdmin, theirs.id, { name: 'Mine now' }), ForbiddenError)
    await failureOf(services().update.execute(pantryAdmin, own.id, { partnerId: shelter.id }), ForbiddenError)
    expect((await services().update.execute(pantryAdmin, own.id, { isArchived: true })).isArchived).toBe(true)
    for (const role of ['staff', 'partner_agent', 'volunteer'] as const) {
      const reader = await world.member(role, { partnerId: pantry.id })
      await failureOf(services().create.execute(reader, { partnerId: pantry.id, name: 'X' }), ForbiddenError)
      expect((await services().list.execute(reader, { includeArchived: true }, ALL)).items.map((s) => s.id)).toEqual([theirs.id, own.id])
    }
  })

  test('lists by partner and status, archived ones when asked; another organization sees none and finds none', async () => {
    const open = await services().create.execute(world.admin, { partnerId: pantry.id, name: 'Open' })
    world.clock.advance(1000)
    const closed = await services().create.execute(world.admin, { partnerId: world.defaultPartner.id, name: 'Closed', status: 'inactive' })
    const list = (filter: object) => services().list.execute(world.admin, filter, ALL)
    expect((await list({})).items.map((s) => s.id)).toEqual([closed.id, open.id])
    expect((await list({ partnerId: pantry.id })).items.map((s) => s.id)).toEqual([open.id])
    expect((await list({ status: 'inactive' })).total).toBe(1)
    const stranger = (await world.otherOrganization()).admin
    expect((await services().list.execute(stranger, {}, ALL)).total).toBe(0)
    await failureOf(services().get.execute(stranger, open.id), NotFoundError)
    await failureOf(services().update.execute(stranger, open.id, { name: 'Ours' }), NotFoundError)
  })
})

describe('taxonomy terms', () => {
  test('imports a vocabulary, skipping codes on file; a service names terms and reads them as imported', async () => {
    const report = await importTerms('code,name,description\n1102,Food,Meals and groceries\n1103, Housing ,\n1102,Again,\n')
    expect(report).toMatchObject({ rows: 3, created: 2, skipped: 1, errors: [] })
    expect((await importTerms('code,name\n1103,Housing\n1104,Transit\n')).created).toBe(1)
    const housing = { vocabulary: 'open-eligibility', code: '1103' }
    const service = await services().create.execute(world.admin, {
      partnerId: pantry.id,
      name: 'Pantry',
      taxonomyTerms: [housing, housing],
    })
    expect(service.taxonomyTerms).toEqual([expect.objectContaining({ ...housing, name: 'Housing' })])
    expect(service.taxonomyTerms[0]).not.toHaveProperty('description')

    const unknown = await failureOf(
      services().update.execute(world.admin, service.id, { taxonomyTerms: [housing, { vocabulary: '211', code: '1103' }] }),
      InvalidError,
    )
    expect(pathsOf(unknown)).toEqual(['/taxonomyTerms/1'])
    const found = await services().searchTerms.execute(pantryAdmin, { q: 'OUS' }, ALL)
    expect(found.items.map((t) => t.name)).toEqual(['Housing'])
  })

  test('refuses rows without code or name, a vocabulary not named as the rule says, and anyone but an org_admin', async () => {
    const report = await importTerms('code,name\n,Food\n1102,\n')
    expect(report.errors.map((e) => [e.row, e.field])).toEqual([
      [1, 'code'],
      [2, 'name'],
    ])
    await failureOf(importTerms('code,name\n1,A\n', 'has spaces'), InvalidError)
    await failureOf(services().importTerms.execute(pantryAdmin, 'oe', aFile('code,name\n1,A\n'), { dryRun: false }), ForbiddenError)
  })
})
