import { afterEach, beforeEach } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { Repositories } from '../../../src/application/ports/repositories'
import type { ClaimedOutboxMessage, OutboxMessage } from '../../../src/domain/messaging/outbox'
import { anOrganization } from '../../support/builders'
import type { RepositoryFixture } from './contract-context'
import { minute } from './contract-support'

/** A pending email of `organizationId`, due at minute 0; the webhook contract builds its deliveries on it. */
export function aMessage(overrides: Partial<OutboxMessage> & Pick<OutboxMessage, 'organizationId'>): OutboxMessage {
  return {
    id: randomUUID(),
    payload: {
      channel: 'email',
      email: {
        template: 'invitation',
        to: 'ana@example.org',
        subject: 'You are invited',
        text: 'Choose your password: https://x/accept-invite?token=t',
      },
    },
    status: 'pending',
    attempts: 0,
    nextAttemptAt: minute(0),
    createdAt: minute(0),
    ...overrides,
  }
}

/**
 * The outbox is read across organizations, so each test of it gets an empty store of its own: made before
 * each test of the describe block this is called in, cleaned up after it. Answers the steps on that store.
 */
export function anOutboxInAStoreOfItsOwn(make: () => Promise<RepositoryFixture>) {
  let box: RepositoryFixture
  beforeEach(async () => {
    box = await make()
  })
  afterEach(async () => {
    await box.cleanup()
  })
  const boxRead = () => box.persistence.repositories
  const boxWrite = <T>(work: (r: Repositories) => Promise<T>): Promise<T> => box.persistence.unitOfWork.run(work)
  return {
    boxRead,
    boxWrite,
    found: (id: string) => boxRead().outbox.findById(id),
    async anOrganizationInBox() {
      const organization = anOrganization()
      await boxWrite((r) => r.organizations.insert(organization))
      return organization.id
    },
    async enqueue(...messages: OutboxMessage[]) {
      await boxWrite(async (r) => {
        for (const message of messages) await r.outbox.enqueue(message)
      })
    },
    claim: (organizationId: string, now: Date, limit: number, lockedUntil: Date) =>
      boxWrite((r) => r.outbox.claimDue(organizationId, now, limit, lockedUntil)),
    /** A message as a claim leaves it: sending until `lockedUntil`, its current attempt begun at `inFlightSince`. */
    claimed: (message: OutboxMessage, lockedUntil: Date, inFlightSince: Date): ClaimedOutboxMessage => ({
      ...message,
      status: 'sending',
      lockedUntil,
      inFlightSince,
    }),
    sorted: (values: string[]) => [...values].sort(),
    /** A message under a claim of `lockedUntil`, as a worker that died would leave it. */
    underClaim: (organizationId: string, lockedUntil: Date, overrides: Partial<OutboxMessage> = {}) =>
      aMessage({ organizationId, status: 'sending', lockedUntil, inFlightSince: minute(0), ...overrides }),
  }
}
