import { beforeEach, describe, expect, test } from 'bun:test'
import type { UseCases } from '../../src/application/use-cases'
import type { Actor } from '../../src/domain/auth/actor'
import { InvalidError } from '../../src/domain/errors'
import type { Need } from '../../src/domain/needs/need'
import type { Partner } from '../../src/domain/partners/partner'
import { createWorld, type World } from '../support/world'
import { failureOf, pathsOf } from './failure-of'

// The rules of every input hold for every caller: a use case called directly (as the CLI and these tests
// do) refuses what the HTTP schemas refuse, field by field, and changes nothing.

let world: World
let useCases: UseCases
let pantry: Partner
let need: Need
let member: Actor
beforeEach(async () => {
  world = await createWorld()
  useCases = world.useCases
  pantry = await world.partner({ name: 'Pantry', slaHours: 48 })
  need = await useCases.needs.create.execute(world.admin, { partnerId: pantry.id })
  member = await world.member('staff')
})

/** A call that breaks rules, and the paths of the fields it breaks them on. */
interface Case {
  name: string
  call: () => Promise<unknown>
  paths: string[]
}

const text = (length: number) => 'x'.repeat(length)

async function expectRefused({ call, paths }: Case) {
  const error = await failureOf(call(), InvalidError)
  expect(pathsOf(error)).toEqual([...paths].sort())
  for (const { message } of error.errors) expect(message).toMatch(/^(must|is|has) /)
}

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

describe('members and profiles', () => {
  const cases = (): Case[] => [
    {
      name: 'an invitation to no address, with an unknown role and profile, a phone "call me" and a link that is not http(s)',
      call: () =>
        useCases.members.invite.execute(world.admin, {
          email: 'not-an-email',
          role: 'boss' as never,
          phone: 'call me',
          profiles: ['root' as never],
          appUrl: 'javascript:alert(1)',
        }),
      paths: ['/appUrl', '/email', '/phone', '/profiles', '/role'],
    },
    {
      name: 'a member update with phone "call me"',
      call: () => useCases.members.update.execute(world.admin, member.memberId, { role: 'staff', phone: 'call me' }),
      paths: ['/phone'],
    },
    {
      name: 'a profile with a blank name and phone "call me"',
      call: () => useCases.members.updateProfile.execute(member, { fullName: ' ', phone: 'call me' }),
      paths: ['/fullName', '/phone'],
    },
  ]

  test.each(cases().map((c) => [c.name, c]))('refuses %s, and changes nothing', async (_name, c) => {
    const members = () => world.repositories.members.list(world.organizationId, {}, { page: 1, limit: 100 })
    const before = await members()
    await expectRefused(c as Case)
    expect(await members()).toEqual(before)
  })

  test('the phone of a member can still be cleared with null', async () => {
    await useCases.members.update.execute(world.admin, member.memberId, { role: 'staff', phone: '+15551234567' })
    await useCases.members.update.execute(world.admin, member.memberId, { role: 'staff', phone: null })
    expect((await world.repositories.members.findById(world.organizationId, member.memberId))?.phone).toBeUndefined()
  })
})

describe('needs, notes and texts', () => {
  const cases = (): Case[] => [
    {
      name: 'a need with an unknown status and a customFields key past 100 characters',
      call: () =>
        useCases.needs.create.execute(world.admin, { partnerId: pantry.id, status: 'DONE' as never, customFields: { [text(101)]: 'x' } }),
      paths: ['/customFields', '/status'],
    },
    {
      name: 'a change to an unknown status',
      call: () => useCases.needs.update.execute(world.admin, need.id, { status: 'DONE' as never }),
      paths: ['/status'],
    },
    {
      name: 'a public need without a description',
      call: () => useCases.needs.submitPublic.execute({ organizationId: world.organizationId, description: '' }),
      paths: ['/description'],
    },
    { name: 'an empty note', call: () => useCases.needs.addNote.execute(world.admin, need.id, ''), paths: ['/content'] },
    {
      name: 'a note past 5,000 characters',
      call: () => useCases.needs.addNote.execute(world.admin, need.id, text(5001)),
      paths: ['/content'],
    },
    {
      name: 'a text past 1,600 characters',
      call: () => useCases.needs.sendSms.execute(world.admin, need.id, text(1601)),
      paths: ['/body'],
    },
  ]

  test.each(cases().map((c) => [c.name, c]))('refuses %s, and records nothing', async (_name, c) => {
    const needs = () => useCases.needs.list.execute(world.admin, {}, { page: 1, limit: 100 })
    const before = await needs()
    await expectRefused(c as Case)
    expect(await needs()).toEqual(before)
    expect((await world.repositories.interactions.listByNeed(world.organizationId, need.id, { page: 1, limit: 100 })).items).toEqual([])
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

describe('text that is not valid Unicode (a lone surrogate)', () => {
  const lone = 'Ana \ud800'
  const cases = (): Case[] => [
    {
      name: 'a public need with a lone surrogate in its description and in a contact field',
      call: () =>
        useCases.needs.submitPublic.execute({
          organizationId: world.organizationId,
          description: lone,
          customFields: { firstName: 'Ana' },
        }),
      paths: ['/description'],
    },
    {
      name: 'a need whose customFields hold one in a nested value',
      call: () =>
        useCases.needs.create.execute(world.admin, { partnerId: pantry.id, customFields: { household: { members: ['Ana', lone] } } }),
      paths: ['/customFields/household/members/1'],
    },
    {
      name: 'a need whose customFields hold one in a key',
      call: () => useCases.needs.create.execute(world.admin, { partnerId: pantry.id, customFields: { 'k\udc00': 'x' } }),
      paths: ['/customFields/k\ufffd'],
    },
    {
      name: 'a partner keyword',
      call: () => useCases.partners.create.execute(world.admin, { name: 'Clinic', slaHours: 24, keywords: ['food', '\udfff'] }),
      paths: ['/keywords'],
    },
    { name: 'a profile name', call: () => useCases.members.updateProfile.execute(member, { fullName: lone }), paths: ['/fullName'] },
    { name: 'a note', call: () => useCases.needs.addNote.execute(world.admin, need.id, lone), paths: ['/content'] },
    { name: 'a text', call: () => useCases.needs.sendSms.execute(world.admin, need.id, lone), paths: ['/body'] },
  ]

  test.each(cases().map((c) => [c.name, c]))('refuses %s, naming the field', async (_name, c) => {
    const error = await failureOf((c as Case).call(), InvalidError)
    expect(pathsOf(error)).toEqual((c as Case).paths)
    for (const { message } of error.errors) expect(message).toEndWith('must be valid Unicode text')
  })

  test('accepts the same text made whole (a surrogate pair is one character)', async () => {
    const made = await useCases.needs.submitPublic.execute({
      organizationId: world.organizationId,
      description: 'Ana \ud83d\ude00',
      customFields: { 'k\ud83d\ude00': 'x' },
    })
    expect(made.customFields).toMatchObject({ description: 'Ana 😀', 'k😀': 'x' })
  })
})
