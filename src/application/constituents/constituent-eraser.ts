import type { Constituent } from '../../domain/constituents/constituent'
import { erasedConstituent, withoutContactKeys } from '../../domain/constituents/erasure'
import type { Keyset } from '../../domain/shared/page'
import type { AuditSubject, AuditTrail } from '../audit/audit-trail'
import { keysetBatches } from '../keyset-batches'
import type { Clock } from '../ports/clock'
import type { Repositories } from '../ports/repositories'
import type { WebhookEvents } from '../webhooks/webhook-events'

/**
 * Erases a person inside the caller's transaction (docs/privacy.md): every place the service keeps their
 * details loses them, while their needs stay, linked to the emptied record, for the organization's figures.
 * Shared by the erasure an admin asks for and the retention the worker runs.
 */
export class ConstituentEraser {
  constructor(
    private readonly clock: Clock,
    private readonly events: WebhookEvents,
    private readonly audit: AuditTrail,
  ) {}

  /** Answers the erased record; a person erased already is answered as is, and nothing is recorded again. */
  async erase(r: Repositories, who: AuditSubject, person: Constituent): Promise<Constituent> {
    if (person.erasedAt) return person
    const organizationId = person.organizationId
    const erased = erasedConstituent(person, this.clock.now())
    // The record, its duplicate keys and its search terms (rewritten from the emptied record).
    await r.constituents.update(erased)
    // A match says who resembles whom and on what: it names the person, and there is nothing left to resolve.
    for (const match of await r.householdMatches.listInvolving(organizationId, person.id)) {
      await r.householdMatches.delete(organizationId, match.id)
    }
    const needIds: string[] = []
    const needsOf = (after: Keyset | undefined, limit: number) =>
      r.needs.listAfter(organizationId, { constituentId: person.id }, after, limit)
    for await (const batch of keysetBatches(needsOf)) {
      for (const need of batch) {
        needIds.push(need.id)
        const customFields = withoutContactKeys(need.customFields)
        if (customFields) await r.needs.update({ ...need, customFields })
      }
    }
    await r.interactions.forgetInboundSenders(organizationId, person.id, needIds)
    // Messages to the person: those not sent will never be; those sent keep no copy of where they went.
    const to = { ...(person.phone ? { phone: person.phone } : {}), ...(person.email ? { email: person.email } : {}) }
    for (const interactionId of await r.outbox.forgetMessagesTo(organizationId, to)) {
      await r.interactions.setDelivery(organizationId, interactionId, 'failed', undefined)
    }
    // What would have been sent to them with no provider set is theirs too (docs/api/organization.md "Development outbox").
    await r.developmentOutbox.forgetMessagesTo(organizationId, to)
    await this.audit.record(r, who, { action: 'erase', recordType: 'constituent', recordId: person.id })
    await this.events.emit(r, organizationId, 'constituent.erased', { constituentId: person.id })
    return erased
  }
}
