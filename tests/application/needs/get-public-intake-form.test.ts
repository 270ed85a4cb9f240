import { beforeEach, describe, expect, test } from 'bun:test'
import { ForbiddenError, NotFoundError } from '../../../src/domain/errors'
import { createWorld, type World } from '../../support/world'

// docs/api/pages.md "Pages": what the public intake form shows of the organization its slug names.
let world: World
beforeEach(async () => {
  world = await createWorld()
})

describe('GetPublicIntakeForm', () => {
  test("answers the organization's name, slug and the sites that may frame its form, and nothing else", async () => {
    const organization = (await world.repositories.organizations.findById(world.organizationId))!
    expect(await world.useCases.needs.getPublicForm.execute(organization.slug)).toEqual({
      organizationName: organization.name,
      organizationSlug: organization.slug,
      formOrigins: [],
    })
  })

  test('a slug the organization left still names it, answered with the slug it has now', async () => {
    const former = (await world.repositories.organizations.findById(world.organizationId))!.slug
    await world.useCases.organizations.updateSettings.execute(world.admin, { slug: 'renamed-pantry' })
    expect((await world.useCases.needs.getPublicForm.execute(former)).organizationSlug).toBe('renamed-pantry')
  })

  test('an unknown slug, or text that cannot be a slug, is not found', async () => {
    for (const slug of ['no-such-organization', 'Upper-Case', '', 'a'.repeat(64), '../etc']) {
      await expect(world.useCases.needs.getPublicForm.execute(slug)).rejects.toBeInstanceOf(NotFoundError)
    }
  })

  test("a form another site's page posts is the organization's only when it lists that origin in formOrigins", async () => {
    const slug = (await world.repositories.organizations.findById(world.organizationId))!.slug
    await expect(world.useCases.needs.getPublicForm.execute(slug, 'https://pantry.example.net')).rejects.toBeInstanceOf(ForbiddenError)
    await world.useCases.organizations.updateSettings.execute(world.admin, { formOrigins: ['https://pantry.example.net'] })
    expect((await world.useCases.needs.getPublicForm.execute(slug, 'https://pantry.example.net')).organizationSlug).toBe(slug)
    await expect(world.useCases.needs.getPublicForm.execute(slug, 'https://evil.example')).rejects.toBeInstanceOf(ForbiddenError)
  })
})
