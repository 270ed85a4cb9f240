import type { Actor } from '../../domain/auth/actor'
import type { Constituent } from '../../domain/constituents/constituent'
import { withoutHiddenContact } from '../../domain/constituents/redaction'
import { isDigitWord, parseConstituentQuery, type ConstituentQuery } from '../../domain/constituents/search'
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
    authorizeQuery(actor, parsed)
    const result = await this.repositories.constituents.search(actor.organizationId, parsed, page)
    const items = result.items.map((c) => withoutHiddenContact(actor, c))
    await this.audit.constituentsRead(actor, items)
    return { ...result, items }
  }
}

/**
 * Finding someone by a phone or email confirms it: only for those who may read them. A word of digits
 * among names is matched against the phone (isDigitWord), so it counts as a phone search.
 */
export function authorizeQuery(actor: Actor, parsed: ConstituentQuery): void {
  const digitWord = parsed.kind === 'words' && parsed.words.some(isDigitWord)
  if (parsed.kind === 'phone' || parsed.kind === 'email' || digitWord) authorize(actor, 'constituents:read-contact')
}
