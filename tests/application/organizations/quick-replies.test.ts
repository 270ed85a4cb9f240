import { beforeEach, describe, expect, test } from 'bun:test'
import { ForbiddenError, InvalidError } from '../../../src/domain/errors'
import { createWorld, type World } from '../../support/world'
import { failureOf } from '../failure-of'

// docs/api/organization.md "Quick replies", through the use cases on the in-memory store.
let world: World
beforeEach(async () => {
  world = await createWorld()
})

const READY = { label: 'Ready', body: { en: 'Your box {reference} is ready at {partner}.', es: 'Su caja {reference} está lista.' } }

describe('quick replies', () => {
  test('an org_admin replaces them whole and a member who may text reads them', async () => {
    const { getQuickReplies, updateQuickReplies } = world.useCases.organizations
    expect(await getQuickReplies.execute(world.admin)).toEqual({ replies: [] })
    await updateQuickReplies.execute(world.admin, { replies: [READY, { label: 'Closed', body: { en: 'Closed today' } }] })
    await updateQuickReplies.execute(world.admin, { replies: [READY] })
    const communicator = await world.member('staff', { profiles: ['sms_communicator'] })
    expect(await getQuickReplies.execute(communicator)).toEqual({ replies: [READY] })
  })

  test('each problem is a field error at its path, and nothing is kept', async () => {
    const { getQuickReplies, updateQuickReplies } = world.useCases.organizations
    const error = await failureOf(
      updateQuickReplies.execute(world.admin, {
        replies: [READY, { label: 'Ready ', body: { en: 'Hi {name}' } }, { label: 'None', body: {} }],
      }),
      InvalidError,
    )
    expect(error.errors.map((e) => e.path)).toEqual(['/replies/1/label', '/replies/1/body/en', '/replies/2/body'])
    expect(await getQuickReplies.execute(world.admin)).toEqual({ replies: [] })
  })

  test('staff who may not text cannot read them; only org_admin changes them', async () => {
    const { getQuickReplies, updateQuickReplies } = world.useCases.organizations
    const staff = await world.member('staff')
    await failureOf(getQuickReplies.execute(staff), ForbiddenError)
    const communicator = await world.member('staff', { profiles: ['sms_communicator'] })
    await failureOf(updateQuickReplies.execute(communicator, { replies: [READY] }), ForbiddenError)
  })
})
