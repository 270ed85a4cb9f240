import { describe, expect, test } from 'bun:test'
import type { OutboxMessage } from '../../../src/domain/messaging/outbox'
import type { WebhookEndpoint } from '../../../src/domain/webhooks/webhook'
import type { ContractContext } from './contract-context'
import { ALL, ascendingIds, ids, minute, presentKeys } from './contract-support'
import { aMessage } from './outbox-support'
import { aWebhookEndpoint } from '../../support/builders'

/** An endpoint made at the suite's origin, as the contract's times are. */
function anEndpoint(overrides: Partial<WebhookEndpoint> & Pick<WebhookEndpoint, 'organizationId'>): WebhookEndpoint {
  return aWebhookEndpoint({ createdAt: minute(0), updatedAt: minute(0), ...overrides })
}

function aDelivery(organizationId: string, endpointId: string, overrides: Partial<OutboxMessage> = {}): OutboxMessage {
  return aMessage({
    organizationId,
    payload: { channel: 'webhook', webhook: { endpointId, type: 'need.created', body: '{"type":"need.created","data":{"needId":"n"}}' } },
    ...overrides,
  })
}

/** The webhooks' part of the repository contract: webhook endpoints, and their deliveries in the outbox. */
export function describeWebhookContract({ read, write, anOrganizationWithPartner }: ContractContext): void {
  describe('webhook endpoints', () => {
    test('stores an endpoint as given, its events as a list, absent times absent; only its organization finds it', async () => {
      const [{ organization }, { organization: other }] = await Promise.all([anOrganizationWithPartner(), anOrganizationWithPartner()])
      const endpoint = anEndpoint({ organizationId: organization.id, events: ['need.created', 'sms.status'] })
      await write((r) => r.webhookEndpoints.insert(endpoint))
      expect(await read().webhookEndpoints.findById(organization.id, endpoint.id)).toEqual(endpoint)
      expect(presentKeys(await read().webhookEndpoints.findById(organization.id, endpoint.id), ['disabledAt'])).toEqual([])
      expect(await read().webhookEndpoints.findById(other.id, endpoint.id)).toBeUndefined()
      expect(await read().webhookEndpoints.findById(organization.id, 'not-a-uuid')).toBeUndefined()
    })

    test('update saves every field and clears disabledAt; another organization cannot update or delete it', async () => {
      const [{ organization }, { organization: other }] = await Promise.all([anOrganizationWithPartner(), anOrganizationWithPartner()])
      const endpoint = anEndpoint({ organizationId: organization.id })
      await write((r) => r.webhookEndpoints.insert(endpoint))
      const disabled = {
        ...endpoint,
        url: 'http://127.0.0.1:9/x',
        events: ['note.added' as const],
        enabled: false,
        consecutiveFailures: 5,
        disabledAt: minute(3),
        updatedAt: minute(3),
      }
      await write((r) => r.webhookEndpoints.update(disabled))
      expect(await read().webhookEndpoints.findById(organization.id, endpoint.id)).toEqual(disabled)
      const { disabledAt: _cleared, ...enabled } = { ...disabled, enabled: true, consecutiveFailures: 0 }
      await write((r) => r.webhookEndpoints.update(enabled))
      expect(await read().webhookEndpoints.findById(organization.id, endpoint.id)).toEqual(enabled)

      await write((r) => r.webhookEndpoints.update({ ...enabled, organizationId: other.id, url: 'https://evil.example.org/' }))
      expect((await read().webhookEndpoints.findById(organization.id, endpoint.id))!.url).toBe(enabled.url)
      expect(await write((r) => r.webhookEndpoints.delete(other.id, endpoint.id))).toBe(false)
      expect(await write((r) => r.webhookEndpoints.delete(organization.id, endpoint.id))).toBe(true)
      expect(await read().webhookEndpoints.findById(organization.id, endpoint.id)).toBeUndefined()
      expect(await write((r) => r.webhookEndpoints.delete(organization.id, endpoint.id))).toBe(false)
    })

    test('lists newest first with id as tie-break, paged, with the count; subscribedTo answers the enabled subscribers oldest first', async () => {
      const { organization } = await anOrganizationWithPartner()
      const [a, b, c] = ascendingIds(3)
      const endpoints = [
        anEndpoint({ id: a!, organizationId: organization.id, createdAt: minute(1), events: ['need.created', 'note.added'] }),
        anEndpoint({ id: b!, organizationId: organization.id, createdAt: minute(1), events: ['note.added'] }),
        anEndpoint({ id: c!, organizationId: organization.id, createdAt: minute(0), events: ['need.created'], enabled: false }),
      ]
      await write(async (r) => {
        for (const endpoint of endpoints) await r.webhookEndpoints.insert(endpoint)
      })
      const first = await read().webhookEndpoints.list(organization.id, { page: 1, limit: 2 })
      expect({ ids: ids(first.items), total: first.total }).toEqual({ ids: [b!, a!], total: 3 })
      expect(ids((await read().webhookEndpoints.list(organization.id, { page: 2, limit: 2 })).items)).toEqual([c!])
      expect(await read().webhookEndpoints.count(organization.id)).toBe(3)
      expect(ids(await read().webhookEndpoints.subscribedTo(organization.id, 'note.added'))).toEqual([a!, b!])
      expect(ids(await read().webhookEndpoints.subscribedTo(organization.id, 'need.created'))).toEqual([a!])
      expect(await read().webhookEndpoints.subscribedTo(organization.id, 'sms.received')).toEqual([])
    })
  })

  describe('webhook deliveries', () => {
    test("lists one endpoint's messages of its organization, newest first, with the endpoint's latest status", async () => {
      const [{ organization }, { organization: other }] = await Promise.all([anOrganizationWithPartner(), anOrganizationWithPartner()])
      const endpoint = anEndpoint({ organizationId: organization.id })
      const another = anEndpoint({ organizationId: organization.id })
      await write(async (r) => {
        await r.webhookEndpoints.insert(endpoint)
        await r.webhookEndpoints.insert(another)
      })
      // Only `older` comes due in this test: the claims below take it.
      const later = { nextAttemptAt: minute(100) }
      const [older, newer, elsewhere] = [
        aDelivery(organization.id, endpoint.id),
        aDelivery(organization.id, endpoint.id, { createdAt: minute(1), ...later }),
        aDelivery(organization.id, another.id, later),
      ]
      await write(async (r) => {
        for (const message of [older, newer, elsewhere]) await r.outbox.enqueue(message)
      })
      const listed = await read().outbox.listWebhookDeliveries(organization.id, endpoint.id, ALL)
      expect({ ids: ids(listed.items), total: listed.total }).toEqual({ ids: [newer.id, older.id], total: 2 })
      expect(listed.items[1]).toEqual(older)
      expect((await read().outbox.listWebhookDeliveries(other.id, endpoint.id, ALL)).items).toEqual([])

      const [claimed] = await write((r) => r.outbox.claimDue(organization.id, minute(0), 1, minute(10)))
      expect(claimed!.id).toBe(older.id)
      await write((r) => r.outbox.reschedule(older.id, minute(10), 1, minute(2), 'the endpoint answered 503', false, 503))
      expect(await read().outbox.findById(older.id)).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 503 })
      await write((r) => r.outbox.claimDue(organization.id, minute(2), 1, minute(12)))
      await write((r) => r.outbox.reschedule(older.id, minute(12), 2, minute(3), 'the endpoint could not be reached', true))
      expect(presentKeys(await read().outbox.findById(older.id), ['responseStatus'])).toEqual([])
      await write((r) => r.outbox.claimDue(organization.id, minute(3), 1, minute(13)))
      expect(await write((r) => r.outbox.markSent(older.id, minute(13), minute(4), undefined, 204))).toBe(true)
      expect(await read().outbox.findById(older.id)).toMatchObject({ status: 'sent', sentAt: minute(4), responseStatus: 204 })
    })
  })
}
