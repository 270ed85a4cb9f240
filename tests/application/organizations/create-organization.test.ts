import { beforeEach, describe, expect, test } from 'bun:test'
import type { CreateOrganization, CreateOrganizationInput } from '../../../src/application/organizations/create-organization'
import { ConflictError, InvalidError } from '../../../src/domain/errors'
import { PORTS } from '../../../src/main/container'
import { createWorld, TEST_PASSWORD, type World } from '../../support/world'
import { failureOf, pathsOf } from '../failure-of'

let world: World
let createOrganization: CreateOrganization
beforeEach(async () => {
  world = await createWorld()
  createOrganization = world.useCases.operations.createOrganization
})

const input = (overrides: Partial<CreateOrganizationInput> = {}): CreateOrganizationInput => ({
  name: 'Harbor Food Bank',
  slug: 'harbor-food-bank',
  adminEmail: 'director@harbor.example.org',
  adminPassword: TEST_PASSWORD,
  ...overrides,
})

describe('CreateOrganization', () => {
  test('creates the organization with its settings', async () => {
    const created = await createOrganization.execute(input({ shortCode: 'HARB' }))
    expect(await world.repositories.organizations.findById(created.organizationId)).toMatchObject({
      name: 'Harbor Food Bank',
      slug: 'harbor-food-bank',
      shortCode: 'HARB',
      maxConcurrency: 5,
      createdAt: world.clock.now(),
    })
  })

  test('gives it exactly one partner, its default, open for needs', async () => {
    const created = await createOrganization.execute(input())
    const partners = await world.repositories.partners.listAll(created.organizationId)
    expect(partners).toHaveLength(1)
    expect(partners[0]).toMatchObject({ id: created.defaultPartnerId, isDefault: true, isArchived: false })
    expect(partners[0]!.slaHours).toBeGreaterThanOrEqual(1)
  })

  test("names its default partner in the organization's language: English unless Spanish is given", async () => {
    const english = await createOrganization.execute(input())
    const spanish = await createOrganization.execute(input({ slug: 'banco-de-alimentos', language: 'es' }))
    expect((await world.repositories.partners.listAll(english.organizationId))[0]!.name).toBe('General intake')
    expect((await world.repositories.partners.listAll(spanish.organizationId))[0]!.name).toBe('Recepción general')
    const failure = await failureOf(createOrganization.execute(input({ slug: 'other-bank', language: 'fr' as 'es' })), InvalidError)
    expect(pathsOf(failure)).toEqual(['/language'])
  })

  test('a slug another organization has left is taken: it stays that one', async () => {
    const first = await createOrganization.execute(input())
    await world.repositories.organizations.update({
      ...(await world.repositories.organizations.findById(first.organizationId))!,
      slug: 'harbor-pantry',
    })
    await failureOf(createOrganization.execute(input({ adminEmail: 'other@example.org' })), ConflictError)
  })

  test('makes a confirmed org_admin who can log in at once, with the email lower-cased', async () => {
    const created = await createOrganization.execute(input({ adminEmail: 'Director@Harbor.Example.org' }))
    expect(await world.repositories.members.findById(created.organizationId, created.adminMemberId)).toMatchObject({
      email: 'director@harbor.example.org',
      role: 'org_admin',
      isConfirmed: true,
      profiles: [],
    })
    const tokens = await world.useCases.auth.login.execute({ email: 'director@harbor.example.org', password: TEST_PASSWORD })
    expect(world.container.get(PORTS.accessTokens).verify(tokens.accessToken)).toMatchObject({
      memberId: created.adminMemberId,
      organizationId: created.organizationId,
    })
  })

  test('never stores the password itself', async () => {
    const created = await createOrganization.execute(input())
    const admin = await world.repositories.members.findById(created.organizationId, created.adminMemberId)
    expect(admin!.passwordHash).toBeDefined()
    expect(admin!.passwordHash).not.toContain(TEST_PASSWORD)
  })

  test('refuses a slug already taken (Conflict), and creates nothing', async () => {
    await createOrganization.execute(input())
    await failureOf(createOrganization.execute(input({ name: 'Another', adminEmail: 'someone@example.org' })), ConflictError)
    expect(await world.repositories.members.findAllByEmail('someone@example.org')).toEqual([])
  })

  test('refuses a short code already taken (Conflict)', async () => {
    await createOrganization.execute(input({ shortCode: 'HARB' }))
    await failureOf(createOrganization.execute(input({ slug: 'another-bank', shortCode: 'HARB' })), ConflictError)
  })

  test.each(['Harbor', 'harbor food', '-harbor', 'harbor-', 'harbor--bank', 'harbor_bank', '', 'a'.repeat(64)])(
    'refuses the slug "%s"',
    async (slug) => {
      expect(pathsOf(await failureOf(createOrganization.execute(input({ slug })), InvalidError))).toEqual(['/slug'])
    },
  )

  test('accepts a slug of 63 characters with digits and single hyphens', async () => {
    const slug = `a1-${'b'.repeat(60)}`
    expect(slug).toHaveLength(63)
    const created = await createOrganization.execute(input({ slug }))
    expect((await world.repositories.organizations.findById(created.organizationId))!.slug).toBe(slug)
  })

  test.each(['ABC', 'ABCDEFG', 'harb', 'HAR8', 'HA-RB'])('refuses the short code "%s"', async (shortCode) => {
    expect(pathsOf(await failureOf(createOrganization.execute(input({ shortCode })), InvalidError))).toEqual(['/shortCode'])
  })

  test('accepts short codes of 4 to 6 capitals, and none at all', async () => {
    for (const [i, shortCode] of ['ABCD', 'ABCDEF', undefined].entries()) {
      const created = await createOrganization.execute(input({ slug: `bank-${i}`, ...(shortCode ? { shortCode } : {}) }))
      expect((await world.repositories.organizations.findById(created.organizationId))!.shortCode).toBe(shortCode)
    }
  })

  test('refuses an admin password under 12 characters', async () => {
    expect(pathsOf(await failureOf(createOrganization.execute(input({ adminPassword: 'elevenchars' })), InvalidError))).toEqual([
      '/adminPassword',
    ])
    await createOrganization.execute(input({ adminPassword: 'twelve chars' }))
  })

  test('refuses a blank or over-long name and a malformed admin email', async () => {
    expect(pathsOf(await failureOf(createOrganization.execute(input({ name: '  ' })), InvalidError))).toEqual(['/name'])
    expect(pathsOf(await failureOf(createOrganization.execute(input({ name: 'n'.repeat(201) })), InvalidError))).toEqual(['/name'])
    expect(pathsOf(await failureOf(createOrganization.execute(input({ adminEmail: 'director' })), InvalidError))).toEqual(['/adminEmail'])
  })

  test('reports every bad field at once', async () => {
    const error = await failureOf(
      createOrganization.execute(input({ slug: 'Bad Slug', shortCode: 'x', adminPassword: 'short' })),
      InvalidError,
    )
    expect(pathsOf(error)).toEqual(['/adminPassword', '/shortCode', '/slug'])
  })
})
