import { expect, test } from 'bun:test'
import type { Repositories } from '../../../src/application/ports/repositories'
import type { UnitOfWork } from '../../../src/application/ports/unit-of-work'
import { createSmsWorld } from '../sms-world'

// A send the provider took whose outcome could not be recorded (the database failed in between) is in
// doubt like an interrupted one: the next try asks the provider first and does not send it again.

/** The store's unit of work, but the next `markSent` fails as a database would. */
function failingRecording(store: UnitOfWork) {
  const state = { failures: 1 }
  const unitOfWork: UnitOfWork = {
    run: (work) =>
      store.run((r) => {
        const outbox = new Proxy(r.outbox, {
          get: (target, key, receiver) =>
            key === 'markSent' && state.failures > 0
              ? () => {
                  state.failures--
                  return Promise.reject(new Error('connection lost while recording'))
                }
              : Reflect.get(target, key, receiver),
        })
        return work({ ...r, outbox } satisfies Repositories)
      }),
  }
  return unitOfWork
}

test('a text the provider took but whose outcome was not recorded is asked about first, and not sent again', async () => {
  const world = await createSmsWorld({ unitOfWork: failingRecording })
  await world.configureOrganization({ phoneNumber: '+15557770000' })
  const need = await world.needFor((await world.constituent({ firstName: 'Ana', phone: '+15550001111' })).id)
  const { interactionId, outboxId } = await world.queue(need.id, 'Your box is ready')

  await world.dispatcher.runOnce()
  expect(world.sms.attempts).toHaveLength(1)
  expect(await world.outboxMessage(outboxId)).toMatchObject({ status: 'pending', attempts: 1 })
  expect((await world.outboxMessage(outboxId)).inFlightSince).toBeDefined()

  world.clock.advance(2_000)
  await world.dispatcher.runOnce()
  expect(world.sms.lookups).toHaveLength(1)
  expect(world.sms.attempts).toHaveLength(1)
  const [accepted] = world.sms.accepted
  expect(await world.interaction(interactionId)).toMatchObject({ deliveryStatus: 'sent', providerMessageId: accepted!.id })
  expect(await world.outboxMessage(outboxId)).toMatchObject({ status: 'sent' })
})
