import { describe, expect, test } from 'bun:test'
import { InvalidError } from '../../src/domain/errors'
import { failureOf, pathsOf } from './failure-of'
import { type Case, freshWorldEachTest, member, need, pantry, useCases, world } from './input-rules-support'

// Text that PostgreSQL cannot store (a lone UTF-16 surrogate) is refused by the use cases themselves, in a
// value or a key at any depth, naming the field: the CLI and these tests meet the rule HTTP enforces first
// (docs/reliability.md "Text that is not Unicode").
freshWorldEachTest()

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
