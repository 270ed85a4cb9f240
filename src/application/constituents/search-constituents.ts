import type { Actor } from '../../domain/auth/actor'
import type { Constituent } from '../../domain/constituents/constituent'
import { withoutHiddenContact } from '../../domain/constituents/redaction'
import { parseConstituentQuery } from '../../domain/constituents/search'
import type { Page, PageRequest } from '../../domain/shared/page'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'
import type { AuditTrail } from '../audit/audit-trail'

// matching: src/domain/constituents/search.ts
export class SearchConstituents {
  constructor(
    private readonly repositories: Repositories,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, query: string | undefined, page: PageRequest): Promise<Page<Constituent>> {
    authorize(actor, 'constituents:read')
    const parsed = parseConstituentQuery(query)
    // Finding someone by a phone or email confirms it: only for those who may read them. A word of digits
    // among names is matched against the phone digits too (one index), so it counts as a phone search.
    const digitWord = parsed.kind === 'words' && parsed.words.some((word) => /^\d+$/.test(word))
    if (parsed.kind === 'phone' || parsed.kind === 'email' || digitWord) authorize(actor, 'constituents:read-contact')
    const result = await this.repositories.constituents.search(actor.organizationId, parsed, page)
    const items = result.items.map((c) => withoutHiddenContact(actor, c))
    await this.audit.constituentsRead(actor, items)
    return { ...result, items }
  }
}
