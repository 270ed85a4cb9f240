import { beforeEach, describe, expect, test } from 'bun:test'
import { ConflictError, IdempotencyKeyReusedError, InvalidError, NotFoundError } from '../../../src/domain/errors'
import type { Need } from '../../../src/domain/needs/need'
import { createWorld, type World } from '../../support/world'
import { failureOf } from '../failure-of'

// docs/api/conventions.md "Retrying a create": a need created again with the same Idempotency-Key is the need the
// first request made; another request under the key is refused; the key lasts 24 hours.

const DAY = 24 * 60 * 60 * 1000
const KEY = '0b6c8a51-3f8e-4e54-9b0f-2f1d8f0a7c11'

let world: World
beforeEach(async () => {
  world = await createWorld()
})

const needsOf = async (w: World = world) => (await w.repositories.needs.list(w.organizationId, {}, { page: 1, limit: 100 })).items
/** A need created with `key` (none when null). */
const create = (input: Record<string, unknown> = {}, key: string | null = KEY, actor = world.admin) =>
  world.useCases.needs.create.execute(actor, { partnerId: world.defaultPartner.id, ...input }, key ?? undefined)
const submit = (input: Record<string, unknown> = {}) =>
  world.useCases.needs.submitPublic.execute(
    { organizationId: world.organizationId, description: 'Food', ...input },
    { idempotencyKey: KEY },
  )

describe('CreateNeed with an Idempotency-Key', () => {
  test('a retry creates nothing and answers the need the first made, its fields in any order', async () => {
    const first = await create({ customFields: { program: 'winter', bags: 2 }, isConfidential: false })
    world.clock.advance(60_000)
    const retried = await create({ isConfidential: false, customFields: { bags: 2, program: 'winter' } })

    expect(retried).toEqual(first)
    expect((await needsOf()).map((need) => need.id)).toEqual([first.id])
  })

  test('the retry answers the need as it reads now, as the caller reads it', async () => {
    const first = await create()
    await world.useCases.needs.update.execute(world.admin, first.id, { status: 'IN_PROGRESS' })
    expect(await create()).toMatchObject({ id: first.id, referenceNumber: first.referenceNumber, status: 'IN_PROGRESS' })
  })

  test('the same key with another request is refused (422) and creates nothing', async () => {
    const first = await create({ customFields: { bags: 2 } })
    const error = await failureOf(create({ customFields: { bags: 3 } }), IdempotencyKeyReusedError)
    expect(error.kind).toBe('idempotency_key_reused')
    expect(error.message).toContain('different request')
    expect((await needsOf()).map((need) => need.id)).toEqual([first.id])
  })

  test('each caller, and each kind of create, has keys of its own', async () => {
    const caseworker = await world.member('staff')
    const mine = await create()
    const theirs = await create({}, KEY, caseworker)
    await world.useCases.needs.addNote.execute(world.admin, mine.id, 'Called', KEY)
    expect(theirs.id).not.toBe(mine.id)
    expect(await needsOf()).toHaveLength(2)
  })

  test('without a key every request creates', async () => {
    await create({}, null)
    await create({}, null)
    expect(await needsOf()).toHaveLength(2)
  })

  test('a create that failed keeps no key: the key may then come with a corrected request', async () => {
    await failureOf(create({ assignedTo: crypto.randomUUID() }), InvalidError)
    const made = await create()
    expect((await needsOf()).map((need) => need.id)).toEqual([made.id])
  })

  test('two requests with one key at once make one need, and both are answered with it', async () => {
    const [a, b] = await Promise.all([create(), create()])
    expect(a.id).toBe(b.id)
    expect(await needsOf()).toHaveLength(1)
  })

  test('a key lasts 24 hours: a day later it creates again, and the retention job has removed it', async () => {
    const first = await create()
    world.clock.advance(DAY - 1)
    expect((await create()).id).toBe(first.id)
    world.clock.advance(1)
    const again = await create()
    expect(again.id).not.toBe(first.id)
    expect(await needsOf()).toHaveLength(2)

    world.clock.advance(DAY)
    const pass = await world.useCases.operations.applyRetention.execute()
    expect(pass.idempotencyKeysRemoved).toBe(1)
    expect((await world.useCases.operations.applyRetention.execute()).idempotencyKeysRemoved).toBe(0)
    expect((await create()).id).not.toBe(again.id)
  })

  test('an erased person leaves the need the retry answers emptied of them', async () => {
    const first = await create({ customFields: { firstName: 'Ana', phone: '+15550001111', program: 'winter' } })
    await world.useCases.constituents.erase.execute(world.admin, first.constituentId!)
    const retried = await create({ customFields: { firstName: 'Ana', phone: '+15550001111', program: 'winter' } })
    expect(retried.id).toBe(first.id)
    expect(retried.customFields).toEqual({ program: 'winter' })
  })

  test('a need the caller no longer sees is not found on retry', async () => {
    const partner = await world.partner()
    const member = await world.member('partner_agent', { partnerId: partner.id })
    const first = await create({ partnerId: partner.id }, KEY, member)
    await world.useCases.needs.update.execute(world.admin, first.id, { partnerId: world.defaultPartner.id })
    await failureOf(create({ partnerId: partner.id }, KEY, member), NotFoundError)
  })

  test.each([
    ['', 'must not be empty'],
    ['two words', 'must be visible ASCII characters, without spaces'],
    ['clé', 'must be visible ASCII characters, without spaces'],
    ['k'.repeat(256), 'must be at most 255 characters'],
  ])('refuses the key %p, naming its header', async (key, message) => {
    const error = await failureOf(create({}, key), InvalidError)
    expect(error.errors).toEqual([{ path: 'headers/idempotency-key', message }])
    expect(await needsOf()).toEqual([])
  })

  test('takes 255 visible ASCII characters', async () => {
    const key = `${'!~'.repeat(127)}x`
    expect((await create({}, key)).id).toBe((await create({}, key)).id)
  })
})

describe('SubmitPublicNeed with an Idempotency-Key', () => {
  test('a retry answers the public need the first made, its reference number, and creates nothing', async () => {
    const first = await submit({ customFields: { firstName: 'Ana' } })
    const retried = await submit({ customFields: { firstName: 'Ana' } })
    expect(retried).toEqual(first)
    expect(retried).not.toHaveProperty('constituentId')
    expect((await needsOf()).map((need: Need) => need.id)).toEqual([first.id])
  })

  test('another request under the key is refused; the anonymous callers of another organization have keys of their own', async () => {
    await submit()
    await failureOf(submit({ description: 'Rent' }), IdempotencyKeyReusedError)
    const other = await world.otherOrganization()
    await world.useCases.needs.submitPublic.execute({ organizationId: other.organizationId, description: 'Food' }, { idempotencyKey: KEY })
    expect(await needsOf()).toHaveLength(1)
    expect(await needsOf(other)).toHaveLength(1)
  })
})

describe('a retry while the first has not committed', () => {
  test('is a 409 that says so, when the key is recorded but not yet readable', async () => {
    const first = await create()
    // What SQLite's shared transaction shows a retry: the key taken, nothing of it committed yet.
    const { idempotencyKeys } = world.repositories
    const find = idempotencyKeys.find
    idempotencyKeys.find = async () => undefined
    try {
      const error = await failureOf(create(), ConflictError)
      expect(error.message).toContain('still being processed')
    } finally {
      idempotencyKeys.find = find
    }
    expect((await create()).id).toBe(first.id)
  })
})
