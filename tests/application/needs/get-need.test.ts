import { beforeEach, describe, expect, test } from 'bun:test'
import type { GetNeed } from '../../../src/application/needs/get-need'
import { NotFoundError } from '../../../src/domain/errors'
import type { Need } from '../../../src/domain/needs/need'
import { createWorld, type World } from '../../support/world'
import { failureOf } from '../failure-of'

let world: World
let getNeed: GetNeed
let need: Need
beforeEach(async () => {
  world = await createWorld()
  getNeed = world.useCases.needs.get
  need = await world.useCases.needs.create.execute(world.admin, { partnerId: world.defaultPartner.id, customFields: { story: 'x' } })
})

describe('GetNeed', () => {
  test('finds a need by its id', async () => {
    expect(await getNeed.execute(world.admin, need.id)).toEqual({ ...need, canText: false, cannotTextReason: 'no-phone' })
  })

  test('answers whether its person may be texted (docs/api/needs.md "Texting a need"): here texts go to the log', async () => {
    const phone = '+15550009001'
    const constituent = await world.useCases.constituents.create.execute(world.admin, { firstName: 'Ana', phone })
    const texted = await world.useCases.needs.create.execute(world.admin, {
      partnerId: world.defaultPartner.id,
      constituentId: constituent.id,
    })
    expect(await getNeed.execute(world.admin, texted.id)).toMatchObject({ canText: false, cannotTextReason: 'provider-log' })
    const stoppedAt = new Date('2026-03-01T10:00:00Z')
    await world.repositories.smsOptOuts.optOut(world.organizationId, phone, stoppedAt)
    expect(await getNeed.execute(world.admin, texted.id)).toMatchObject({
      canText: false,
      cannotTextReason: 'opted-out',
      textsStoppedAt: stoppedAt,
    })
  })

  test('a need marked for attention, opened by a member who may act on it, is answered marked and is no longer so; a volunteer leaves it', async () => {
    await world.repositories.needs.setAttention(world.organizationId, need.id, true)
    const volunteer = await world.member('volunteer', { partnerId: world.defaultPartner.id })
    expect((await getNeed.execute(volunteer, need.id)).needsAttention).toBe(true)
    expect((await getNeed.execute(world.admin, need.id)).needsAttention).toBe(true)
    expect((await world.repositories.needs.findById(world.organizationId, need.id))!.needsAttention).toBeFalsy()
  })

  test('finds a need by its id written in capitals', async () => {
    expect((await getNeed.execute(world.admin, need.id.toUpperCase())).id).toBe(need.id)
  })

  test('finds a need by its reference number, whatever its case', async () => {
    for (const reference of ['REQ-1001', 'req-1001', 'Req-1001']) {
      expect((await getNeed.execute(world.admin, reference)).id).toBe(need.id)
    }
  })

  test('answers Need not found for an unknown id or reference', async () => {
    await failureOf(getNeed.execute(world.admin, crypto.randomUUID()), NotFoundError)
    const error = await failureOf(getNeed.execute(world.admin, 'REQ-9999'), NotFoundError)
    expect(error.message).toBe('Need not found')
  })

  test("answers Need not found for another organization's need, by id or by reference", async () => {
    const other = await world.otherOrganization()
    await failureOf(getNeed.execute(other.admin, need.id), NotFoundError)
    await failureOf(getNeed.execute(other.admin, need.referenceNumber), NotFoundError)
  })

  test("resolves a reference number within the caller's organization only", async () => {
    const other = await world.otherOrganization()
    const theirs = await other.useCases.needs.create.execute(other.admin, { partnerId: other.defaultPartner.id })
    expect(theirs.referenceNumber).toBe(need.referenceNumber)
    expect((await getNeed.execute(other.admin, 'req-1001')).id).toBe(theirs.id)
    expect((await getNeed.execute(world.admin, 'req-1001')).id).toBe(need.id)
  })

  test("answers Need not found to partner roles for another partner's need", async () => {
    const pantry = await world.partner()
    for (const role of ['partner_admin', 'partner_agent', 'volunteer'] as const) {
      const actor = await world.member(role, { partnerId: pantry.id })
      await failureOf(getNeed.execute(actor, need.id), NotFoundError)
      await failureOf(getNeed.execute(actor, need.referenceNumber), NotFoundError)
    }
  })

  test("shows partner roles their own partner's need", async () => {
    const volunteer = await world.member('volunteer', { partnerId: world.defaultPartner.id })
    expect((await getNeed.execute(volunteer, need.id)).id).toBe(need.id)
  })

  test('empties the customFields of a confidential need for a caller who may not read them', async () => {
    const secret = await world.useCases.needs.create.execute(world.admin, {
      partnerId: world.defaultPartner.id,
      isConfidential: true,
      customFields: { story: 'private' },
    })
    const agent = await world.member('partner_agent', { partnerId: world.defaultPartner.id })
    const partnerAdmin = await world.member('partner_admin', { partnerId: world.defaultPartner.id })
    expect((await getNeed.execute(agent, secret.id)).customFields).toEqual({})
    expect((await getNeed.execute(partnerAdmin, secret.id)).customFields).toEqual({ story: 'private' })
  })
})
