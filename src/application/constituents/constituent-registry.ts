import type { Constituent } from '../../domain/constituents/constituent'
import type { ContactDetails } from '../../domain/constituents/contact'
import type { PossibleDuplicate } from '../../domain/constituents/matching'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { Repositories } from '../ports/repositories'
import type { DuplicateDetection } from './duplicate-detection'
import type { WebhookEvents } from '../webhooks/webhook-events'

export interface Registered {
  constituent: Constituent
  /**
   * Everyone the constituent may be already (docs/constituents.md "Duplicate detection"): for the caller to
   * answer as its reader may learn them (`duplicateHintsFor`), never as they are.
   */
  candidates: PossibleDuplicate[]
}

/** Adds a constituent inside the caller's transaction: in the given household or a new one of its own. */
export class ConstituentRegistry {
  constructor(
    private readonly detection: DuplicateDetection,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly events: WebhookEvents,
  ) {}

  async register(r: Repositories, organizationId: string, details: ContactDetails, householdId?: string): Promise<Registered> {
    const now = this.clock.now()
    if (!householdId) {
      householdId = this.ids.next()
      await r.constituents.insertHousehold({ id: householdId, organizationId, createdAt: now })
    }
    const constituent: Constituent = { ...details, id: this.ids.next(), organizationId, householdId, createdAt: now, updatedAt: now }
    await r.constituents.insert(constituent)
    await this.events.emit(r, organizationId, 'constituent.created', { constituentId: constituent.id, householdId })
    const found = await this.detection.run(r, constituent)
    return { constituent, candidates: found.map((c) => ({ constituentId: c.constituent.id, reasons: c.reasons })) }
  }
}
