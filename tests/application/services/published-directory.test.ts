import { beforeEach, describe, expect, test } from 'bun:test'
import { NotFoundError } from '../../../src/domain/errors'
import { keptByQuery } from '../../../src/domain/services/directory'
import type { ServiceDetail } from '../../../src/domain/services/service'
import { aFile } from '../../support/builders'
import { createWorld, type World } from '../../support/world'
import { failureOf } from '../failure-of'

// docs/directory.md: the directory an organization publishes, on the in-memory adapters.
let world: World
let slug: string
beforeEach(async () => {
  world = await createWorld()
  slug = (await world.repositories.organizations.findById(world.organizationId))!.slug
})

const directory = () => world.useCases.services.publishedDirectory
const publish = (publishDirectory: boolean) => world.useCases.organizations.updateSettings.execute(world.admin, { publishDirectory })
const create = (partnerId: string, name: string, extra: Record<string, unknown> = {}) =>
  world.useCases.services.create.execute(world.admin, { partnerId, name, ...extra })

describe('GetPublishedDirectory', () => {
  test('an organization that does not publish, and a slug of none, are not found alike', async () => {
    await failureOf(directory().execute(slug), NotFoundError)
    await failureOf(directory().execute('no-such-organization'), NotFoundError)
    await failureOf(directory().execute('Not A Slug'), NotFoundError)
    await publish(true)
    expect((await directory().execute(slug)).organization.id).toBe(world.organizationId)
    await publish(false)
    await failureOf(directory().execute(slug), NotFoundError)
  })

  test('holds every service but the archived ones, with its terms, and only the partners that give one', async () => {
    await publish(true)
    await world.useCases.services.importTerms.execute(world.admin, 'oe', aFile('code,name\n1102,Food\n'), { dryRun: false })
    const pantry = await world.partner({ name: 'Pantry' })
    const shelter = await world.partner({ name: 'Shelter' })
    await world.partner({ name: 'Idle' })
    await create(pantry.id, 'Food pantry', { taxonomyTerms: [{ vocabulary: 'oe', code: '1102' }] })
    await create(pantry.id, 'Hot meals', { status: 'defunct' })
    const coats = await create(shelter.id, 'Winter coats')
    await world.useCases.services.update.execute(world.admin, coats.id, { isArchived: true })
    const published = await directory().execute(slug)
    expect(published.services.map((s) => s.name).sort()).toEqual(['Food pantry', 'Hot meals'])
    expect(published.services.find((s) => s.name === 'Food pantry')!.taxonomyTerms).toMatchObject([{ code: '1102', name: 'Food' }])
    expect(published.partners.map((p) => p.name)).toEqual(['Pantry'])
  })

  test('a former slug still names the organization, which answers its slug now', async () => {
    await publish(true)
    await world.useCases.organizations.updateSettings.execute(world.admin, { slug: `${slug}-new` })
    expect((await directory().execute(slug)).organization.slug).toBe(`${slug}-new`)
  })
})

describe('keptByQuery', () => {
  const service = {
    name: 'Food pantry',
    description: 'Groceries once a week',
    updatedAt: new Date('2026-03-01T10:00:00.000Z'),
    taxonomyTerms: [{ id: 't-1', name: 'Emergency food' }],
  } as unknown as ServiceDetail

  test('every word of the search begins a word of the name, description or terms, case aside', () => {
    expect(keptByQuery(service, {})).toBe(true)
    expect(keptByQuery(service, { search: 'GROC week' })).toBe(true)
    expect(keptByQuery(service, { search: 'emergency' })).toBe(true)
    expect(keptByQuery(service, { search: 'food shelter' })).toBe(false)
    expect(keptByQuery(service, { search: 'ood' })).toBe(false)
  })

  test('a term and a time narrow the search', () => {
    expect(keptByQuery(service, { taxonomyTermId: 't-1', search: 'food' })).toBe(true)
    expect(keptByQuery(service, { taxonomyTermId: 't-2' })).toBe(false)
    expect(keptByQuery(service, { modifiedAfter: new Date('2026-03-01T09:59:59.999Z') })).toBe(true)
    expect(keptByQuery(service, { modifiedAfter: new Date('2026-03-01T10:00:00.000Z') })).toBe(false)
  })
})
