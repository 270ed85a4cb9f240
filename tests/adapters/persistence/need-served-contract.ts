import { describe, expect, test } from 'bun:test'
import type { Need } from '../../../src/domain/needs/need'
import { aNeed, aPartner } from '../../support/builders'
import type { ContractContext } from './contract-context'

const at = (iso: string) => new Date(iso)
const SINCE = at('2026-11-02T05:00:00.000Z')
const UNTIL = at('2026-11-09T05:00:00.000Z')

/** The people and households served: distinct over the needs resolved in a span of time, in all and per partner. */
export function describeNeedServedContract({ read, write, anOrganizationWithPartner, aConstituentOf, insertNeeds }: ContractContext): void {
  describe('people served', () => {
    test('counts each person and household once over the needs resolved in the span, in all and per partner; its end excluded', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const org = organization.id
      const other = aPartner({ organizationId: org })
      await write((r) => r.partners.insert(other))
      const [ana, bo] = [await aConstituentOf(org), await aConstituentOf(org)]
      const resolved = (
        partnerId: string,
        resolvedAt: string,
        person?: { constituentId: string; householdId: string },
        extra: Partial<Need> = {},
      ) =>
        aNeed({
          organizationId: org,
          partnerId,
          status: 'RESOLVED',
          createdAt: at('2026-10-01T00:00:00Z'),
          resolvedAt: at(resolvedAt),
          ...person,
          ...extra,
        })
      await insertNeeds(
        resolved(partner.id, '2026-11-02T05:00:00Z', ana),
        resolved(partner.id, '2026-11-05T12:00:00Z', ana),
        resolved(other.id, '2026-11-06T12:00:00Z', ana),
        resolved(other.id, '2026-11-09T04:59:59.999Z', bo),
        // Outside the span, open, or for nobody on file: not counted.
        resolved(partner.id, '2026-11-02T04:59:59.999Z', bo),
        resolved(partner.id, '2026-11-09T05:00:00Z', bo),
        aNeed({ organizationId: org, partnerId: partner.id, status: 'IN_PROGRESS', createdAt: at('2026-11-03T00:00:00Z'), ...bo }),
        resolved(partner.id, '2026-11-04T00:00:00Z'),
      )
      const { organization: foreign, partner: foreignPartner } = await anOrganizationWithPartner()
      await insertNeeds(
        resolved(foreignPartner.id, '2026-11-04T00:00:00Z', await aConstituentOf(foreign.id), { organizationId: foreign.id }),
      )

      const figures = await read().needReports.served(org, SINCE, UNTIL)
      expect(figures.total).toEqual({ people: 2, households: 2 })
      expect([...figures.byPartner].sort((a, b) => a.people - b.people || a.partnerId.localeCompare(b.partnerId))).toEqual(
        [
          { partnerId: partner.id, people: 1, households: 1 },
          { partnerId: other.id, people: 2, households: 2 },
        ].sort((a, b) => a.people - b.people || a.partnerId.localeCompare(b.partnerId)),
      )
      expect(await read().needReports.served(org, SINCE, UNTIL, partner.id)).toEqual({
        total: { people: 1, households: 1 },
        byPartner: [{ partnerId: partner.id, people: 1, households: 1 }],
      })
      expect(await read().needReports.served(org, UNTIL, at('2026-12-01T00:00:00Z'), other.id)).toEqual({
        total: { people: 0, households: 0 },
        byPartner: [],
      })
    })
  })
}
