import { beforeEach, describe, expect, test } from 'bun:test'
import type { SubmitPublicNeed } from '../../../src/application/needs/submit-public-need'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import { InvalidError } from '../../../src/domain/errors'
import { createWorld, type World } from '../../support/world'
import { ALL, householdExists, matchesOf, needFor, pair, pairOf, register, storedConstituent, storedNeed } from '../constituents/steps'
import { failureOf, pathsOf } from '../failure-of'

// docs/api/needs.md "Needs": contact keys in a need's customFields become a constituent, checked for duplicates.
let world: World
beforeEach(async () => {
  world = await createWorld()
})

const constituents = async (w: World = world): Promise<Constituent[]> =>
  (await w.useCases.constituents.search.execute(w.admin, '', ALL)).items
const PHONE = '+15551234567'

describe('CreateNeed with contact keys in customFields', () => {
  test('registers one constituent in a new household from the contact keys, and links the need to both', async () => {
    const need = await needFor(world, {
      customFields: { firstName: ' Ana ', lastName: 'Lopez', phone: PHONE, addressState: 'IL', description: 'Rent help', householdSize: 3 },
    })
    const all = await constituents()
    expect(all).toHaveLength(1)
    const constituent = all[0]!
    expect(constituent).toMatchObject({
      firstName: 'Ana',
      lastName: 'Lopez',
      phone: PHONE,
      addressState: 'IL',
      organizationId: world.organizationId,
    })
    expect('description' in constituent).toBe(false)
    expect('householdSize' in constituent).toBe(false)
    expect(need).toMatchObject({ constituentId: constituent.id, householdId: constituent.householdId })
    expect(await storedNeed(world, need.id)).toMatchObject({ constituentId: constituent.id, householdId: constituent.householdId })
    expect(await householdExists(world, constituent.householdId)).toBe(true)
    expect(need.duplicateWarning).toBeUndefined()
    expect(need).not.toHaveProperty('possibleDuplicates')
  })

  test('gives every such constituent a household of its own', async () => {
    const first = await needFor(world, { customFields: { firstName: 'Ana' } })
    const second = await needFor(world, { customFields: { firstName: 'Ben' } })
    expect(first.householdId).not.toBe(second.householdId)
    expect(first.constituentId).not.toBe(second.constituentId)
  })

  test('registers the constituent in the household sent', async () => {
    const relative = await register(world, { firstName: 'Maria', lastName: 'Lopez' })
    const need = await needFor(world, { householdId: relative.householdId, customFields: { firstName: 'Ana', lastName: 'Lopez' } })
    expect(need.householdId).toBe(relative.householdId)
    expect((await storedConstituent(world, need.constituentId!))!.householdId).toBe(relative.householdId)
    expect(
      (await world.repositories.constituents.listByHousehold(world.organizationId, relative.householdId)).map((c) => c.firstName).sort(),
    ).toEqual(['Ana', 'Maria'])
  })

  test('a second need with the same phone warns of the duplicate and opens one match', async () => {
    const first = await needFor(world, { customFields: { firstName: 'Ana', phone: PHONE } })
    const second = await needFor(world, { customFields: { firstName: 'Anna', phone: PHONE } })
    expect(second.duplicateWarning).toBe('Possible duplicate of 1 constituent: same phone')
    expect(second.constituentId).not.toBe(first.constituentId)
    expect((await storedNeed(world, second.id))!.duplicateWarning).toBe(second.duplicateWarning!)
    const matches = await matchesOf(world)
    expect(matches).toHaveLength(1)
    expect(matches[0]).toMatchObject({
      organizationId: world.organizationId,
      constituentId: second.constituentId,
      candidateConstituentId: first.constituentId,
      reason: 'same phone',
      status: 'OPEN',
      createdAt: world.clock.now(),
    })
    expect(matches[0]!.resolvedAt).toBeUndefined()
  })

  test('opens exactly one OPEN match per candidate and counts them all in the warning', async () => {
    const a = await needFor(world, { customFields: { phone: PHONE } })
    const b = await needFor(world, { customFields: { phone: PHONE } })
    const c = await needFor(world, { customFields: { phone: PHONE } })
    expect(c.duplicateWarning).toBe('Possible duplicate of 2 constituents: same phone')
    expect(c.possibleDuplicates!.map((d) => d.constituentId).sort()).toEqual([a.constituentId!, b.constituentId!].sort())
    expect(c.possibleDuplicates!.map((d) => d.reasons)).toEqual([['same phone'], ['same phone']])
    const ofC = (await matchesOf(world, 'OPEN')).filter((m) => m.constituentId === c.constituentId)
    expect(ofC.map((m) => m.candidateConstituentId).sort()).toEqual([a.constituentId!, b.constituentId!].sort())
    expect(await matchesOf(world)).toHaveLength(3)
  })

  test('names every reason shared: email in any case, name with date of birth', async () => {
    const jose = await needFor(world, {
      customFields: { firstName: 'José', lastName: 'García', dateOfBirth: '1980-05-01', email: 'jose@example.org' },
    })
    const need = await needFor(world, {
      customFields: { firstName: 'JOSE', lastName: 'garcia', dateOfBirth: '1980-05-01', email: 'Jose@Example.org' },
    })
    expect(need.duplicateWarning).toBe('Possible duplicate of 1 constituent: same email, same name and date of birth')
    expect(need.possibleDuplicates).toEqual([
      { constituentId: jose.constituentId!, reasons: ['same email', 'same name and date of birth'] },
    ])
    expect((await matchesOf(world))[0]!.reason).toBe('same email, same name and date of birth')
  })

  test('finds the same last name and street address', async () => {
    await needFor(world, { customFields: { firstName: 'Ana', lastName: 'Lopez', addressStreet: '12 Main St.' } })
    const need = await needFor(world, { customFields: { firstName: 'Ben', lastName: 'LÓPEZ', addressStreet: '12 main st' } })
    expect(need.duplicateWarning).toBe('Possible duplicate of 1 constituent: same last name and address')
  })

  test('does not take someone with only the same first name, city or ZIP for a duplicate', async () => {
    await needFor(world, { customFields: { firstName: 'Ana', addressCity: 'Springfield', addressZip: '62701' } })
    const need = await needFor(world, { customFields: { firstName: 'Ana', addressCity: 'Springfield', addressZip: '62701' } })
    expect(need.duplicateWarning).toBeUndefined()
    expect(await matchesOf(world)).toEqual([])
  })

  test("does not take another organization's constituent for a duplicate", async () => {
    const other = await world.otherOrganization()
    await needFor(other, { customFields: { phone: PHONE } })
    const need = await needFor(world, { customFields: { phone: PHONE } })
    expect(need.duplicateWarning).toBeUndefined()
    expect(await matchesOf(world)).toEqual([])
    expect(await matchesOf(other)).toEqual([])
  })

  test('registers no constituent without contact keys, nor with blank ones', async () => {
    const need = await needFor(world, { customFields: { description: 'food', phone: '', email: '   ', firstName: null } })
    expect(need.constituentId).toBeUndefined()
    expect(need.householdId).toBeUndefined()
    expect(await constituents()).toEqual([])
  })

  test('keeps the household sent on a need without contact keys, registering nobody', async () => {
    const relative = await register(world, { firstName: 'Maria' })
    const need = await needFor(world, { householdId: relative.householdId, customFields: { description: 'food' } })
    expect(need.householdId).toBe(relative.householdId)
    expect(need.constituentId).toBeUndefined()
    expect(await constituents()).toHaveLength(1)
  })

  test('with a constituentId registers nobody new and warns of nothing, whatever the contact keys', async () => {
    const ana = await register(world, { firstName: 'Ana', phone: PHONE })
    const ben = await register(world, { firstName: 'Ben', phone: '+15550000000' })
    const need = await needFor(world, { constituentId: ben.id, customFields: { firstName: 'Ana', phone: PHONE } })
    expect(need).toMatchObject({ constituentId: ben.id, householdId: ben.householdId })
    expect(need.duplicateWarning).toBeUndefined()
    expect((await constituents()).map((c) => c.id).sort()).toEqual([ana.id, ben.id].sort())
    expect(await matchesOf(world)).toEqual([])
  })

  test('refuses invalid contact keys, naming each under /customFields, and stores nothing', async () => {
    const error = await failureOf(
      needFor(world, {
        customFields: {
          firstName: 'Ana',
          phone: '555 123 45',
          addressState: 'ZZ',
          addressZip: '1234',
          dateOfBirth: '2023-02-29',
          email: 'ana@',
        },
      }),
      InvalidError,
    )
    expect(pathsOf(error)).toEqual([
      '/customFields/addressState',
      '/customFields/addressZip',
      '/customFields/dateOfBirth',
      '/customFields/email',
      '/customFields/phone',
    ])
    expect(await constituents()).toEqual([])
    expect((await world.repositories.needs.list(world.organizationId, {}, ALL)).total).toBe(0)
  })

  test('a need refused for a bad reference registers nobody', async () => {
    await failureOf(needFor(world, { assignedTo: crypto.randomUUID(), customFields: { firstName: 'Ana', phone: PHONE } }), InvalidError)
    expect(await constituents()).toEqual([])
  })

  test('answers a creator without PII permission without the contact details, which are still stored', async () => {
    const agent = await world.member('partner_agent', { partnerId: world.defaultPartner.id })
    const customFields = { description: 'Rent help', firstName: 'Ana', phone: PHONE, email: 'ana@example.org', dateOfBirth: '1980-05-01' }
    const need = await world.useCases.needs.create.execute(agent, { partnerId: world.defaultPartner.id, customFields })
    expect(need.customFields).toEqual({ description: 'Rent help', firstName: 'Ana' })
    expect((await storedNeed(world, need.id))!.customFields).toEqual(customFields)
    expect(await storedConstituent(world, need.constituentId!)).toMatchObject({
      phone: PHONE,
      email: 'ana@example.org',
      dateOfBirth: '1980-05-01',
    })
  })
})

describe('SubmitPublicNeed with contact keys in customFields', () => {
  let submit: SubmitPublicNeed
  beforeEach(() => {
    submit = world.useCases.needs.submitPublic
  })

  test('never puts the new person in a household a stranger names: a household of its own, which the need names', async () => {
    const family = await register(world, { firstName: 'Maria', lastName: 'Lopez' })
    const answer = await submit.execute({
      organizationId: world.organizationId,
      description: 'help',
      householdId: family.householdId,
      customFields: { firstName: 'Ana', lastName: 'Lopez' },
    })
    const stored = (await storedNeed(world, answer.id))!
    const ana = (await storedConstituent(world, stored.constituentId!))!
    expect(ana.householdId).not.toBe(family.householdId)
    expect(stored.householdId).toBe(ana.householdId)
    expect(
      (await world.repositories.constituents.listByHousehold(world.organizationId, family.householdId)).map((c) => c.firstName),
    ).toEqual(['Maria'])
  })

  test('registers a constituent in a new household and links the stored need, answering none of it', async () => {
    const answer = await submit.execute({
      organizationId: world.organizationId,
      description: 'help',
      customFields: { firstName: 'Ana', phone: PHONE },
    })
    const [constituent] = await constituents()
    expect(constituent).toMatchObject({ firstName: 'Ana', phone: PHONE })
    expect('description' in constituent!).toBe(false)
    expect(await storedNeed(world, answer.id)).toMatchObject({ constituentId: constituent!.id, householdId: constituent!.householdId })
    expect(Object.keys(answer)).not.toContain('constituentId')
    expect(Object.keys(answer)).not.toContain('householdId')
  })

  test('stores the duplicate warning and opens the match, but answers without the warning', async () => {
    const known = await register(world, { firstName: 'Ana', phone: PHONE })
    const answer = await submit.execute({ organizationId: world.organizationId, description: 'help', customFields: { phone: PHONE } })
    expect(Object.keys(answer)).not.toContain('duplicateWarning')
    const stored = await storedNeed(world, answer.id)
    expect(stored!.duplicateWarning).toBe('Possible duplicate of 1 constituent: same phone')
    const matches = await matchesOf(world, 'OPEN')
    expect(matches.map(pairOf)).toEqual([pair(known, { id: stored!.constituentId! })])
  })

  test('answers the contact keys themselves, as the caller sent them', async () => {
    const answer = await submit.execute({
      organizationId: world.organizationId,
      description: 'help',
      customFields: { firstName: 'Ana', phone: PHONE },
    })
    expect(answer.customFields).toEqual({ firstName: 'Ana', phone: PHONE, description: 'help' })
  })

  test('registers nobody without contact keys', async () => {
    const answer = await submit.execute({ organizationId: world.organizationId, description: 'help', customFields: { householdSize: 2 } })
    expect(await constituents()).toEqual([])
    expect((await storedNeed(world, answer.id))!.constituentId).toBeUndefined()
  })

  test('with a constituentId registers nobody new', async () => {
    const known = await register(world, { firstName: 'Ana' })
    const answer = await submit.execute({
      organizationId: world.organizationId,
      description: 'help',
      constituentId: known.id,
      customFields: { firstName: 'Someone', phone: PHONE },
    })
    expect(await constituents()).toHaveLength(1)
    expect(await storedNeed(world, answer.id)).toMatchObject({ constituentId: known.id, householdId: known.householdId })
    expect(await matchesOf(world)).toEqual([])
  })

  test('refuses invalid contact keys under /customFields and registers nobody', async () => {
    const error = await failureOf(
      submit.execute({
        organizationId: world.organizationId,
        description: 'help',
        customFields: { email: 'not-an-email', addressState: 'ZZ' },
      }),
      InvalidError,
    )
    expect(pathsOf(error)).toEqual(['/customFields/addressState', '/customFields/email'])
    expect(await constituents()).toEqual([])
  })
})
