import type { Actor } from '../../domain/auth/actor'
import type { Partner } from '../../domain/partners/partner'
import { offsetOf, type Page, type PageRequest } from '../../domain/shared/page'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'

// every partner of the organization, archived ones included, newest first (docs/api/conventions.md "Errors")
export class ListPartners {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor, page: PageRequest): Promise<Page<Partner>> {
    authorize(actor, 'partners:list')
    const all = (await this.repositories.partners.listAll(actor.organizationId)).reverse()
    const start = offsetOf(page)
    return { items: all.slice(start, start + page.limit), total: all.length }
  }
}
