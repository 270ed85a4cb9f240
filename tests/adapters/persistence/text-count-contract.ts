import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { Interaction } from '../../../src/domain/needs/interaction'
import type { TextCount } from '../../../src/domain/reports/text-figures'
import type { ContractContext } from './contract-context'
import { minute } from './contract-support'

/** A text, or a note, of an organization at a minute. */
function anInteraction(organizationId: string, at: number, overrides: Partial<Interaction> = {}): Interaction {
  return { id: randomUUID(), organizationId, channel: 'sms', senderIdentifier: '+15550001111', createdAt: minute(at), ...overrides }
}

/** In one order whatever the store's, for comparing. */
const sorted = (counts: TextCount[]) =>
  [...counts].sort((a, b) => `${a.direction}${a.deliveryStatus}`.localeCompare(`${b.direction}${b.deliveryStatus}`))

/** The texts of a period counted for the needs report (docs/api/needs.md "Reports"). */
export function describeTextCountContract({ read, write, anOrganizationWithPartner }: ContractContext): void {
  describe('texts counted for the report', () => {
    test('counts the period’s texts per direction and status: from `since` included to `until` excluded, texts only, one organization', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const { organization: other } = await anOrganizationWithPartner()
      const org = organization.id
      const outbound = (at: number, deliveryStatus: Interaction['deliveryStatus']) =>
        anInteraction(org, at, { direction: 'outbound', deliveryStatus, partnerId: partner.id })
      await write(async (r) => {
        for (const interaction of [
          anInteraction(org, 9, { direction: 'inbound' }),
          anInteraction(org, 10, { direction: 'inbound' }),
          anInteraction(org, 11, { direction: 'inbound', partnerId: partner.id }),
          outbound(12, 'delivered'),
          outbound(13, 'delivered'),
          outbound(14, 'failed'),
          outbound(15, 'queued'),
          anInteraction(org, 16, { channel: 'note', senderIdentifier: 'staff@example.org' }),
          anInteraction(org, 20, { direction: 'inbound' }),
          anInteraction(other.id, 12, { direction: 'inbound' }),
        ])
          await r.interactions.insert(interaction)
      })

      expect(sorted(await read().interactions.countTexts(org, minute(10), minute(20)))).toEqual([
        { direction: 'inbound', texts: 2 },
        { direction: 'outbound', deliveryStatus: 'delivered', texts: 2 },
        { direction: 'outbound', deliveryStatus: 'failed', texts: 1 },
        { direction: 'outbound', deliveryStatus: 'queued', texts: 1 },
      ])
      // A partner's: the texts on its needs only.
      expect(sorted(await read().interactions.countTexts(org, minute(10), minute(20), partner.id))).toEqual([
        { direction: 'inbound', texts: 1 },
        { direction: 'outbound', deliveryStatus: 'delivered', texts: 2 },
        { direction: 'outbound', deliveryStatus: 'failed', texts: 1 },
        { direction: 'outbound', deliveryStatus: 'queued', texts: 1 },
      ])
      expect(await read().interactions.countTexts(org, minute(30), minute(40))).toEqual([])
    })
  })
}
