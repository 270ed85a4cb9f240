import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { aNeed, anOrganization } from '../../support/builders'
import { describeAuditContract } from './audit-contract'
import { describeConstituentContract } from './constituent-contract'
import { describeConstituentDuplicatesContract } from './constituent-duplicates-contract'
import { describeConstituentSearchContract } from './constituent-search-contract'
import { contractContext, type RepositoryFixture } from './contract-context'
import { describeDailyDigestContract } from './daily-digest-contract'
import { describeDevelopmentOutboxContract } from './development-outbox-contract'
import { describeEmailSettingsContract } from './email-settings-contract'
import { describeIdempotencyKeyContract } from './idempotency-key-contract'
import { describeErasureContract } from './erasure-contract'
import { describeFederationContract } from './federation-contract'
import { describeReferralContract } from './referral-contract'
import { describeInvitationContract } from './invitation-contract'
import { describeLiveEventContract } from './live-event-contract'
import { describeMemberContract } from './member-contract'
import { describeNeedContract } from './need-contract'
import { describeNeedListContract } from './need-list-contract'
import { describeNeedNumberingContract } from './need-numbering-contract'
import { describeNeedSearchContract } from './need-search-contract'
import { describeNeedSearchPersonContract } from './need-search-person-contract'
import { describeImportContract } from './import-contract'
import { describeNeedHistoryContract } from './need-history-contract'
import { describeNeedReportContract } from './need-report-contract'
import { describeNeedReportScanContract } from './need-report-scan-contract'
import { describeNeedServedContract } from './need-served-contract'
import { describeOrganizationContract } from './organization-contract'
import { describeOutboxClaimContract } from './outbox-claim-contract'
import { describeOutboxContract } from './outbox-contract'
import { describeOutboxOutcomeContract } from './outbox-outcome-contract'
import { describePartnerContract } from './partner-contract'
import { describeSavedViewContract } from './saved-view-contract'
import { describeServiceContract } from './service-contract'
import { describeSendLimitsContract } from './send-limits-contract'
import { describeSessionContract } from './session-contract'
import { describeSmsContract } from './sms-contract'
import { describeSmsInteractionContract } from './sms-interaction-contract'
import { describeSmsMessageContract } from './sms-message-contract'
import { describeTextCountContract } from './text-count-contract'
import { describeUnitOfWorkContract } from './unit-of-work-contract'
import { describeWebhookContract } from './webhook-contract'

/**
 * The repository contract: what every persistence adapter must do, run against each of them (memory,
 * SQLite, PostgreSQL), one file per aggregate. One store serves the whole suite (docs in contract-context.ts).
 */
export function describeRepositories(name: string, make: () => Promise<RepositoryFixture>): void {
  describe(`${name} persistence contract`, () => {
    let fixture: RepositoryFixture
    beforeAll(async () => {
      fixture = await make()
    })
    afterAll(async () => {
      await fixture?.cleanup()
    })
    const context = contractContext(() => fixture, make)
    const { read, write, insertNeeds, anOrganizationWithPartner } = context

    test('answers ping', async () => {
      expect(await context.persistence().ping()).toBe(true)
    })

    test('a lookup sees the writes of the transaction it runs in, transaction after transaction', async () => {
      // The lookups made on every request are prepared once per database (PostgreSQL shares them between the
      // pool and every transaction): each run must still read through the transaction at hand.
      const kept = anOrganization()
      const undone = anOrganization()
      await write(async (r) => {
        await r.organizations.insert(kept)
        expect(await r.organizations.findById(kept.id)).toEqual(kept)
      })
      const rolledBack = write(async (r) => {
        expect(await r.organizations.findById(kept.id)).toEqual(kept)
        await r.organizations.insert(undone)
        expect(await r.organizations.findById(undone.id)).toEqual(undone)
        throw new Error('undo')
      })
      await expect(rolledBack).rejects.toThrow('undo')
      expect(await read().organizations.findById(undone.id)).toBeUndefined()
      await write(async (r) => {
        expect(await r.organizations.findById(undone.id)).toBeUndefined()
        expect(await r.organizations.findById(kept.id)).toEqual(kept)
      })
    })

    describe('records are values', () => {
      test('changing an object after insert or after a read does not change what is stored', async () => {
        const { organization, partner } = await anOrganizationWithPartner()
        const need = aNeed({ organizationId: organization.id, partnerId: partner.id, customFields: { bags: 1 } })
        const stored = structuredClone(need)
        await insertNeeds(need)
        need.status = 'RESOLVED'
        need.customFields.bags = 99

        const found = await read().needs.findById(organization.id, need.id)
        found!.customFields.bags = 42
        found!.status = 'ESCALATED'

        expect(await read().needs.findById(organization.id, need.id)).toEqual(stored)
      })
    })

    describeOrganizationContract(context)
    describePartnerContract(context)
    describeMemberContract(context)
    describeInvitationContract(context)
    describeSessionContract(context)
    describeEmailSettingsContract(context)
    describeNeedContract(context)
    describeNeedListContract(context)
    describeNeedSearchContract(context)
    describeNeedSearchPersonContract(context)
    describeNeedNumberingContract(context)
    describeNeedHistoryContract(context)
    describeNeedReportContract(context)
    describeNeedReportScanContract(context)
    describeNeedServedContract(context)
    describeConstituentContract(context)
    describeConstituentSearchContract(context)
    describeConstituentDuplicatesContract(context)
    describeImportContract(context)
    describeErasureContract(context)
    describeSmsContract(context)
    describeSmsInteractionContract(context)
    describeSmsMessageContract(context)
    describeTextCountContract(context)
    describeSendLimitsContract(context)
    describeWebhookContract(context)
    describeAuditContract(context)
    describeDailyDigestContract(context)
    describeIdempotencyKeyContract(context)
    describeSavedViewContract(context)
    describeServiceContract(context)
    describeDevelopmentOutboxContract(context)
    describeLiveEventContract(context)
    describeOutboxContract(context)
    describeOutboxClaimContract(context)
    describeOutboxOutcomeContract(context)
    describeUnitOfWorkContract(context)
    describeFederationContract(context)
    describeReferralContract(context)
  })
}
