import { describe, expect, test } from 'bun:test'
import { until } from '../sms-world'
import { freshWorldEachTest, queue, sms, world } from './dispatch-sms-support'

// docs/api/organization.md "SMS": the worker never has more of an organization's texts at the provider than its
// maxConcurrency, whatever it claims, and one organization's cap holds up no other's.
freshWorldEachTest()

describe('DispatchOutbox, texts', () => {
  describe("the organization's maxConcurrency", () => {
    test('with 2 and ten texts queued, no claim hands out more than 2 at once and the provider never has more than 2 in flight', async () => {
      await world.configureOrganization({ maxConcurrency: 2 })
      for (let i = 0; i < 10; i++) {
        await queue(`text ${i}`)
        world.clock.advance(1)
      }
      sms().hold()
      let handled = 0
      while (handled < 10) {
        const pass = world.dispatcher.runOnce()
        await until(() => sms().waiting === 2, 'two held sends')
        expect(sms().inFlight).toBe(2)
        expect(await world.dispatcher.claim()).toEqual([])
        expect(await world.dispatcher.runOnce()).toBe(0)
        sms().release()
        expect(await pass).toBe(2)
        handled += 2
      }
      expect(sms().maxInFlight).toBe(2)
      expect(sms().attempts.map((a) => a.body)).toEqual(Array.from({ length: 10 }, (_, i) => `text ${i}`))
      expect(await world.dispatcher.runOnce()).toBe(0)
    })

    test('a claim takes only the slots left free by texts still in flight', async () => {
      await world.configureOrganization({ maxConcurrency: 3 })
      for (let i = 0; i < 5; i++) await queue(`text ${i}`)
      expect(await world.dispatcher.claim()).toHaveLength(3)
      expect(await world.dispatcher.claim()).toHaveLength(0)
      world.clock.advance(world.leaseMs)
      expect(await world.dispatcher.claim()).toHaveLength(3)
    })

    test('one organization at its cap does not hold up another', async () => {
      await world.configureOrganization({ maxConcurrency: 1 })
      await queue('ours 1')
      await queue('ours 2')
      const other = await world.otherOrganization()
      const bo = await other.useCases.constituents.create.execute(other.admin, { firstName: 'Bo', phone: '+15550002222' })
      const theirs = await other.useCases.needs.create.execute(other.admin, { partnerId: other.defaultPartner.id, constituentId: bo.id })
      await other.useCases.needs.sendSms.execute(other.admin, theirs.id, 'theirs')
      const claimed = await world.dispatcher.claim()
      expect(claimed.map((m) => m.organizationId).sort()).toEqual([world.organizationId, other.organizationId].sort())
    })
  })
})
