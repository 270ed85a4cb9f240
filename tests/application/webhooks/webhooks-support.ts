import { expect } from 'bun:test'
import { DispatchOutbox } from '../../../src/application/messaging/dispatch-outbox'
import type { WebhookRequest, WebhookSender } from '../../../src/application/ports/webhooks'
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../src/domain/webhooks/webhook'
import { createContainer, PORTS } from '../../../src/main/container'
import { FixedClock } from '../../support/fixed-clock'
import { cheapPasswords, createWorld, testConfig, type World } from '../../support/world'

// What the webhook tests share (webhooks-endpoints.test.ts, webhooks-events.test.ts): a world whose sender
// is a fake that records every try, and the calls the tests make. Each file keeps its own `world`, made
// before each test by `createWebhookWorld()`, since a test may start another with other settings;
// `webhookHelpers` is handed a way to read it, so the helpers act on the world of the moment.

/** Records every try; answers the statuses it is given in turn (then 200), or throws a given error. */
export class FakeWebhookSender implements WebhookSender {
  readonly requests: WebhookRequest[] = []
  answers: Array<number | Error> = []
  async send(request: WebhookRequest) {
    this.requests.push(request)
    const answer = this.answers.shift() ?? 200
    if (answer instanceof Error) throw answer
    return { status: answer }
  }
}

/** What the promise rejected with (a use case's typed error). */
export async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('the call succeeded'),
    (error: unknown) => error,
  )
}

export async function createWebhookWorld(env: Record<string, string> = {}) {
  const clock = new FixedClock()
  const container = createContainer(testConfig(env), { clock, passwords: cheapPasswords() })
  const fake = new FakeWebhookSender()
  container.rebind(PORTS.webhookSender).toConstantValue(fake)
  container.rebind(PORTS.smsWebhooks).toConstantValue({ isAuthentic: () => true })
  return { world: await createWorld(testConfig(env), container, clock), sender: fake }
}

/** The calls the tests make, on the world `current` answers when each is called. */
export function webhookHelpers(current: () => World) {
  const subscribe = (events: WebhookEventType[] = [...WEBHOOK_EVENT_TYPES], url = 'https://hooks.example.org/intake') =>
    current().useCases.webhooks.create.execute(current().admin, { url, events })
  const dispatch = () => current().container.get(DispatchOutbox).runOnce()
  const deliveriesOf = async (endpointId: string) =>
    (await current().useCases.webhooks.listDeliveries.execute(current().admin, endpointId, { page: 1, limit: 100 })).items
  const newNeed = (customFields: Record<string, string> = {}) =>
    current().useCases.needs.create.execute(current().admin, { partnerId: current().defaultPartner.id, customFields })
  return { subscribe, dispatch, deliveriesOf, newNeed }
}
