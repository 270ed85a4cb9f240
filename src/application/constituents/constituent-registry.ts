import type { Constituent } from '../../domain/constituents/constituent'
import type { ContactDetails } from '../../domain/constituents/contact'
import { duplicateWarning } from '../../domain/constituents/matching'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { Repositories } from '../ports/repositories'
import type { DuplicateDetection } from './duplicate-detection'

export interface Registered {
  constituent: Constituent
  /** The need's duplicateWarning, when candidates were found. */
  duplicateWarning?: string
}

/** Adds a constituent inside the caller's transaction: in the given household or a new one of its own. */
export class ConstituentRegistry {
  constructor(
    private readonly detection: DuplicateDetection,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async register(r: Repositories, organizationId: string, details: ContactDetails, householdId?: string): Promise<Registered> {
    const now = this.clock.now()
    if (!householdId) {
      householdId = this.ids.next()
      await r.constituents.insertHousehold({ id: householdId, organizationId, createdAt: now })
    }
    const constituent: Constituent = { ...details, id: this.ids.next(), organizationId, householdId, createdAt: now, updatedAt: now }
    await r.constituents.insert(constituent)
    const warning = duplicateWarning(await this.detection.run(r, constituent))
    return { constituent, ...(warning ? { duplicateWarning: warning } : {}) }
  }
}
