import type { Constituent, Household } from '../../domain/constituents/constituent'
import type { ContactDetails } from '../../domain/constituents/contact'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { Repositories } from '../ports/repositories'
import type { DuplicateDetection, Registered } from './duplicate-detection'
import type { WebhookEvents } from '../webhooks/webhook-events'

/** A person to add: their details, and the household they join (a new one of their own without). */
export interface NewPerson {
  details: ContactDetails
  householdId?: string
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
    const [registered] = await this.registerAll(r, organizationId, [{ details, ...(householdId ? { householdId } : {}) }])
    return registered!
  }

  /** Adds several in order (an import's batch), each as `register` would, in a few statements for all. */
  async registerAll(r: Repositories, organizationId: string, people: ReadonlyArray<NewPerson>): Promise<Registered[]> {
    if (people.length === 0) return []
    const now = this.clock.now()
    const households: Household[] = []
    const constituents = people.map(({ details, householdId }): Constituent => {
      if (!householdId) {
        householdId = this.ids.next()
        households.push({ id: householdId, organizationId, createdAt: now })
      }
      return { ...details, id: this.ids.next(), organizationId, householdId, createdAt: now, updatedAt: now }
    })
    if (households.length > 0) await r.constituents.insertHouseholds(households)
    await r.constituents.insertMany(constituents)
    const created = constituents.map((c) => ({ constituentId: c.id, householdId: c.householdId }))
    // Together: on PostgreSQL the endpoints and the candidates are read in one round trip.
    const [, found] = await Promise.all([
      this.events.emitEach(r, organizationId, 'constituent.created', created),
      this.detection.runForNew(r, constituents),
    ])
    return constituents.map((constituent, i) => ({ constituent, candidates: found[i]! }))
  }
}
