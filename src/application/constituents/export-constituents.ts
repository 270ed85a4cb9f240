import type { Actor } from '../../domain/auth/actor'
import type { Constituent } from '../../domain/constituents/constituent'
import { withoutHiddenContact } from '../../domain/constituents/redaction'
import { parseConstituentQuery } from '../../domain/constituents/search'
import { authorize } from '../auth/authorize'
import type { AuditTrail } from '../audit/audit-trail'
import { keysetBatches } from '../keyset-batches'
import type { Repositories } from '../ports/repositories'
import { authorizeQuery } from './search-constituents'

// docs/api/exports-import.md "Exports"
export class ExportConstituents {
  constructor(
    private readonly repositories: Repositories,
    private readonly audit: AuditTrail,
  ) {}

  /**
   * The constituents the search would find for `query`, every one of them, in list order and redacted as
   * the search redacts them, as batches read one at a time while the caller consumes them. Refusals come
   * before any read.
   */
  async execute(actor: Actor, query: string | undefined): Promise<AsyncIterable<Constituent[]>> {
    authorize(actor, 'constituents:read')
    authorize(actor, 'records:export')
    const parsed = parseConstituentQuery(query)
    authorizeQuery(actor, parsed)
    const audit = this.audit
    const read = this.repositories.constituents
    return (async function* () {
      for await (const batch of keysetBatches((after, limit) => read.searchAfter(actor.organizationId, parsed, after, limit))) {
        const shown = batch.map((constituent) => withoutHiddenContact(actor, constituent))
        // Recorded before the batch leaves the service: a read the trail does not hold is never answered.
        await audit.constituentsRead(actor, shown)
        yield shown
      }
    })()
  }
}
