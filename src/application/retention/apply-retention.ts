import { retentionStart } from '../../domain/audit/audit-event'
import { DEVELOPMENT_OUTBOX_DAYS } from '../../domain/messaging/development-outbox'
import { IDEMPOTENCY_KEY_LIFETIME_MS } from '../../domain/shared/idempotency'
import { SEEN_MESSAGE_LIFETIME_MS } from '../../domain/federation/channel'
import type { AuditTrail } from '../audit/audit-trail'
import type { ConstituentEraser } from '../constituents/constituent-eraser'
import type { Clock } from '../ports/clock'
import type { DataRetention } from '../ports/repositories/organization-repository'
import type { Repositories } from '../ports/repositories'
import type { UnitOfWork } from '../ports/unit-of-work'

/** How often an organization's retention runs: once a day, by whichever worker claims it first. */
export const RETENTION_PERIOD_MS = 24 * 60 * 60 * 1000
/** People erased per transaction, needs cleared per transaction: the writer is never held long. */
const PEOPLE_BATCH = 100
const NEEDS_BATCH = 500
/** Idempotency-Keys, development outbox messages or federation records removed per transaction. */
const KEYS_BATCH = 1000

/** One organization's run: what it erased and cleared. */
export interface RetentionRun {
  organizationId: string
  constituentsErased: number
  needTextsCleared: number
}

/**
 * What one pass of the worker did: each organization's run it made, how many Idempotency-Keys past their day and
 * development outbox messages past their week it removed.
 */
export interface RetentionPass {
  runs: RetentionRun[]
  idempotencyKeysRemoved: number
  unsentMessagesRemoved: number
  /** Message ids of the channel between instances past their 24 hours, and pairing invitations expired as long (docs/referrals.md). */
  federationRecordsRemoved: number
}

/**
 * The organizations' retention (docs/privacy.md), run by the worker: each organization that chose one is
 * claimed for the day by one worker, which erases the people with no activity for `constituentRetentionDays`
 * and clears the free text of needs resolved and idle for `needTextRetentionDays`, then records the run with
 * its counts. Every pass also removes the Idempotency-Keys past their 24 hours (docs/api/conventions.md "Retrying
 * a create"), whichever instance makes it: they answer nothing any more; and the development outbox's messages
 * past their week (docs/api/organization.md "Development outbox").
 */
export class ApplyRetention {
  constructor(
    private readonly repositories: Repositories,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly eraser: ConstituentEraser,
    private readonly audit: AuditTrail,
  ) {}

  async execute(): Promise<RetentionPass> {
    const idempotencyKeysRemoved = await this.removeExpired(IDEMPOTENCY_KEY_LIFETIME_MS, (r, by) => r.idempotencyKeys.purge(by, KEYS_BATCH))
    const unsentMessagesRemoved = await this.removeExpired(DEVELOPMENT_OUTBOX_DAYS * RETENTION_PERIOD_MS, (r, by) =>
      r.developmentOutbox.purge(by, KEYS_BATCH),
    )
    const federationRecordsRemoved = await this.removeExpired(SEEN_MESSAGE_LIFETIME_MS, (r, by) => r.federation.purge(by, KEYS_BATCH))
    const runs: RetentionRun[] = []
    for (const retention of await this.repositories.organizations.dataRetentions()) {
      const now = this.clock.now()
      const lastRunBefore = new Date(now.getTime() - RETENTION_PERIOD_MS)
      const claimed = await this.unitOfWork.run((r) => r.organizations.claimRetentionRun(retention.organizationId, now, lastRunBefore))
      if (claimed) runs.push(await this.run(retention, now))
    }
    return { runs, idempotencyKeysRemoved, unsentMessagesRemoved, federationRecordsRemoved }
  }

  /** Removes, a batch per transaction, what is older than `lifetimeMs`; answers how many went. */
  private async removeExpired(lifetimeMs: number, purge: (r: Repositories, expiredBy: Date) => Promise<number>): Promise<number> {
    const expiredBy = new Date(this.clock.now().getTime() - lifetimeMs)
    let removed = 0
    for (let batch = KEYS_BATCH; batch === KEYS_BATCH; removed += batch) {
      batch = await this.unitOfWork.run((r) => purge(r, expiredBy))
    }
    return removed
  }

  private async run({ organizationId, constituentRetentionDays, needTextRetentionDays }: DataRetention, now: Date): Promise<RetentionRun> {
    const who = { organizationId }
    let constituentsErased = 0
    if (constituentRetentionDays) {
      const before = retentionStart(now, constituentRetentionDays)
      for (let erased = PEOPLE_BATCH; erased === PEOPLE_BATCH; constituentsErased += erased) {
        erased = await this.unitOfWork.run(async (r) => {
          const idle = await r.constituents.idleSince(organizationId, before, PEOPLE_BATCH)
          for (const person of idle) await this.eraser.erase(r, who, person)
          return idle.length
        })
      }
    }
    let needTextsCleared = 0
    if (needTextRetentionDays) {
      const before = retentionStart(now, needTextRetentionDays)
      for (let cleared = NEEDS_BATCH; cleared === NEEDS_BATCH; needTextsCleared += cleared) {
        cleared = await this.unitOfWork.run((r) => this.clearNeedTexts(r, organizationId, before, now))
      }
    }
    await this.unitOfWork.run((r) =>
      this.audit.record(r, who, {
        action: 'apply_retention',
        recordType: 'organization',
        recordId: organizationId,
        counts: { constituentsErased, needTextsCleared },
      }),
    )
    return { organizationId, constituentsErased, needTextsCleared }
  }

  /** A need's free text: its `customFields` and the content of its notes and texts. */
  private async clearNeedTexts(r: Repositories, organizationId: string, before: Date, now: Date): Promise<number> {
    const needIds = await r.needs.clearResolvedText(organizationId, before, now, NEEDS_BATCH)
    await r.interactions.clearContentOfNeeds(organizationId, needIds)
    return needIds.length
  }
}
