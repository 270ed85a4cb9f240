import type { Actor } from '../../domain/auth/actor'
import type { Constituent } from '../../domain/constituents/constituent'
import { withoutHiddenContact } from '../../domain/constituents/redaction'
import { parseConstituentQuery } from '../../domain/constituents/search'
import { authorize } from '../auth/authorize'
import { keysetBatches } from '../keyset-batches'
import type { Repositories } from '../ports/repositories'
import { authorizeQuery } from './search-constituents'

// docs/api.md "Exports"
export class ExportConstituents {
  constructor(private readonly repositories: Repositories) {}

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
    const read = this.repositories.constituents
    return (async function* () {
      for await (const batch of keysetBatches((after, limit) => read.searchAfter(actor.organizationId, parsed, after, limit))) {
        // Each batch of people whose details leave the service is known here, before it is handed on.
        yield batch.map((constituent) => withoutHiddenContact(actor, constituent))
      }
    })()
  }
}
