import { describe, expect, test } from 'bun:test'
import { type Case, expectRefused, freshWorldEachTest, member, need, pantry, text, useCases, world } from './input-rules-support'

// The rules of every input hold for every caller: a use case called directly (as the CLI and these tests
// do) refuses what the HTTP schemas refuse, field by field, and changes nothing. Here: members and
// profiles, needs, notes and texts.
freshWorldEachTest()

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
