import { afterAll, describe, expect, test } from 'bun:test'
import type { LiveStreams, LiveStreamSink } from '../../src/application/live/live-streams'
import type { Actor } from '../../src/domain/auth/actor'
import type { LiveEvent } from '../../src/domain/webhooks/live-event'
import { PORTS, useCasesOf } from '../../src/main/container'
import { until } from '../application/sms-world'
import { postgresAvailable } from '../support/postgres'
import { closeInstances, twoInstancesOnOneDatabase } from '../support/postgres-instances'
import { TEST_PASSWORD, type World } from '../support/world'

// docs/events.md "The live stream": on PostgreSQL every instance's streams get every instance's events (LISTEN
// and NOTIFY), and a member's access ended through one instance ends its streams on the other.

afterAll(closeInstances)

function recorder() {
  const events: LiveEvent[] = []
  let ended = false
  const sink: LiveStreamSink = {
    event: (e) => void events.push(e),
    reset: () => {},
    heartbeat: () => {},
    end: () => {
      ended = true
    },
  }
  return { sink, events, ended: () => ended }
}

async function tokenOf(world: World, actor: Actor): Promise<string> {
  const passwordHash = await world.container.get(PORTS.passwords).hash(TEST_PASSWORD)
  const member = (await world.repositories.members.findById(actor.organizationId, actor.memberId))!
  await world.repositories.members.update({ ...member, passwordHash })
  const slug = (await world.repositories.organizations.findById(actor.organizationId))!.slug
  return (await world.useCases.auth.login.execute({ email: member.email, password: TEST_PASSWORD, organizationSlug: slug })).accessToken
}

if (postgresAvailable())
  describe('live streams with two instances on one PostgreSQL database', () => {
    test("a need made through one instance reaches the other's streams of its organization only; a deactivation through one ends the stream on the other", async () => {
      const { instances, world } = await twoInstancesOnOneDatabase()
      const [first, second] = instances.map((instance) => useCasesOf(instance).webhooks.stream) as [LiveStreams, LiveStreams]
      const otherWorld = await world.otherOrganization()
      const staff = await world.member('staff')
      const [onSecond, otherOnSecond, staffOnFirst] = [recorder(), recorder(), recorder()]
      await second.open(await tokenOf(world, world.admin), undefined, onSecond.sink)
      await second.open(await tokenOf(otherWorld, otherWorld.admin), undefined, otherOnSecond.sink)
      await first.open(await tokenOf(world, staff), undefined, staffOnFirst.sink)

      const need = await useCasesOf(instances[0]!).needs.create.execute(world.admin, { partnerId: world.defaultPartner.id })
      await until(() => onSecond.events.some((e) => e.data.needId === need.id), 'the need on the other instance')
      await until(() => staffOnFirst.events.some((e) => e.data.needId === need.id), 'the need on the same instance')

      await useCasesOf(instances[1]!).members.update.execute(world.admin, staff.memberId, { active: false })
      await until(staffOnFirst.ended, "the deactivated member's stream ending on the other instance")
      expect(otherOnSecond.events).toEqual([])
      expect(onSecond.ended()).toBe(false)
      await Promise.all([first.close(), second.close()])
    }, 60_000)
  })
