import { describe, expect, test } from 'bun:test'
import { InvalidError } from '../../src/domain/errors'
import { failureOf, pathsOf } from './failure-of'
import { type Case, expectRefused, freshWorldEachTest, pantry, text, useCases, world } from './input-rules-support'

// The rules of every input hold for every caller: a use case called directly (as the CLI and these tests
// do) refuses what the HTTP schemas refuse, field by field, and changes nothing. Here: partners, the
// organization's settings, its email settings, and the operator's commands.
freshWorldEachTest()

describe('partners', () => {
  const cases = (): Case[] => [
    {
      name: 'an empty name and a negative SLA',
      call: () => useCases.partners.create.execute(world.admin, { name: '', slaHours: -5 }),
      paths: ['/name', '/slaHours'],
    },
    {
      name: 'an SLA past a year',
      call: () => useCases.partners.create.execute(world.admin, { name: 'A', slaHours: 8761 }),
      paths: ['/slaHours'],
    },
    {
      name: 'too many keywords, a website that is not http(s), a description too long',
      call: () =>
        useCases.partners.create.execute(world.admin, {
          name: 'Clinic',
          slaHours: 24,
          keywords: Array.from({ length: 51 }, (_, i) => `k${i}`),
          website: 'javascript:alert(1)',
          description: text(5001),
        }),
      paths: ['/description', '/keywords', '/website'],
    },
    {
      name: 'an empty keyword',
      call: () => useCases.partners.create.execute(world.admin, { name: 'Clinic', slaHours: 24, keywords: ['food', ''] }),
      paths: ['/keywords'],
    },
    {
      name: 'an update to SLA 0 and an empty name',
      call: () => useCases.partners.update.execute(world.admin, pantry.id, { slaHours: 0, name: '' }),
      paths: ['/name', '/slaHours'],
    },
    {
      name: 'an update with a fractional SLA',
      call: () => useCases.partners.update.execute(world.admin, pantry.id, { slaHours: 1.5 }),
      paths: ['/slaHours'],
    },
  ]

  test.each(cases().map((c) => [c.name, c]))('refuses %s, and stores nothing', async (_name, c) => {
    const before = await world.repositories.partners.listAll(world.organizationId)
    await expectRefused(c as Case)
    expect(await world.repositories.partners.listAll(world.organizationId)).toEqual(before)
  })

  test('accepts the bounds themselves', async () => {
    const partner = await useCases.partners.create.execute(world.admin, {
      name: text(200),
      slaHours: 8760,
      keywords: Array.from({ length: 50 }, (_, i) => `k${i}`),
    })
    expect((await useCases.partners.update.execute(world.admin, partner.id, { slaHours: 1 })).slaHours).toBe(1)
  })
})

describe('organization settings', () => {
  const settings = { name: 'Food Bank', slug: 'food-bank' }
  const cases = (): Case[] => [
    {
      name: 'a slug that is not one',
      call: () => useCases.organizations.updateSettings.execute(world.admin, { ...settings, slug: 'NOT A SLUG!!' }),
      paths: ['/slug'],
    },
    {
      name: 'a slug past 63 characters',
      call: () => useCases.organizations.updateSettings.execute(world.admin, { ...settings, slug: text(64) }),
      paths: ['/slug'],
    },
    // 0 would leave the organization's texts in the outbox for good: no free slot would ever open.
    {
      name: 'maxConcurrency 0',
      call: () => useCases.organizations.updateSettings.execute(world.admin, { ...settings, maxConcurrency: 0 }),
      paths: ['/maxConcurrency'],
    },
    {
      name: 'maxConcurrency past 1000',
      call: () => useCases.organizations.updateSettings.execute(world.admin, { ...settings, maxConcurrency: 1001 }),
      paths: ['/maxConcurrency'],
    },
    {
      name: 'a blank name',
      call: () => useCases.organizations.updateSettings.execute(world.admin, { ...settings, name: '   ' }),
      paths: ['/name'],
    },
    {
      name: 'a short code of lowercase letters and a TCR status too long',
      call: () => useCases.organizations.updateSettings.execute(world.admin, { ...settings, shortCode: 'food', tcrStatus: text(65) }),
      paths: ['/shortCode', '/tcrStatus'],
    },
    {
      name: 'an app origin with a path and a form origin over http',
      call: () =>
        useCases.organizations.updateSettings.execute(world.admin, {
          ...settings,
          appOrigins: ['https://app.example.org/x'],
          formOrigins: ['http://pantry.example.org'],
        }),
      paths: ['/appOrigins', '/formOrigins'],
    },
  ]

  test.each(cases().map((c) => [c.name, c]))('refuses %s, and changes nothing', async (_name, c) => {
    const before = await world.repositories.organizations.findById(world.organizationId)
    await expectRefused(c as Case)
    expect(await world.repositories.organizations.findById(world.organizationId)).toEqual(before)
  })

  test('accepts one message in flight at a time, and clears the short code with null', async () => {
    const updated = await useCases.organizations.updateSettings.execute(world.admin, { ...settings, shortCode: null, maxConcurrency: 1 })
    expect(updated).toMatchObject({ slug: 'food-bank', maxConcurrency: 1 })
    expect(updated.shortCode).toBeUndefined()
  })

  test('an organization is created under the same rules as it is updated', async () => {
    const error = await failureOf(
      useCases.operations.createOrganization.execute({
        name: 'X',
        slug: 'NOT A SLUG!!',
        shortCode: 'ab',
        adminEmail: 'admin',
        adminPassword: text(12),
      }),
      InvalidError,
    )
    expect(pathsOf(error)).toEqual(['/adminEmail', '/shortCode', '/slug'])
  })
})

describe('email settings', () => {
  const smtp = { provider: 'smtp' as const, apiKey: 'smtp://user:pass@mail.example.org:587', fromEmail: 'help@example.org' }
  const cases = (): Case[] => [
    {
      name: 'a sender that is no address',
      call: () => useCases.organizations.updateEmail.execute(world.admin, { ...smtp, fromEmail: 'help at example' }),
      paths: ['/fromEmail'],
    },
    {
      name: 'an unknown provider and a name too long',
      call: () => useCases.organizations.updateEmail.execute(world.admin, { ...smtp, provider: 'pigeon' as never, fromName: text(201) }),
      paths: ['/fromName', '/provider'],
    },
    {
      name: 'a test to no address',
      call: () => useCases.organizations.testEmail.execute(world.admin, { ...smtp, toEmail: 'nobody' }),
      paths: ['/toEmail'],
    },
  ]

  test.each(cases().map((c) => [c.name, c]))('refuses %s, and stores nothing', async (_name, c) => {
    await expectRefused(c as Case)
    expect(await world.repositories.emailSettings.find(world.organizationId)).toBeUndefined()
  })
})

describe('operations', () => {
  test('a phone number that is not E.164 is refused before any organization is looked up', async () => {
    const error = await failureOf(useCases.operations.setOrganizationPhoneNumber.execute('no-such-org', 'call me'), InvalidError)
    expect(pathsOf(error)).toEqual(['/phone'])
  })

  test('a password shorter than 12 characters is refused', async () => {
    const error = await failureOf(
      useCases.operations.setMemberPassword.execute({ email: 'x@example.org', password: 'short' }),
      InvalidError,
    )
    expect(pathsOf(error)).toEqual(['/password'])
  })
})
