import { t } from 'elysia'
import { SLUG } from '../../../domain/organizations/organization'
import { PAGE_LIMIT } from '../../../domain/shared/page'
import { DateTime, Int32, Named, QueryInteger, Uuid } from '../common.schemas'

// docs/directory.md: the HSDS routes' parameters, and their answers as the document names them. The records are HSDS's
// own, validated in the tests against HSDS's compiled schemas; here they are described, not restated.

export const DirectoryParams = t.Object({
  organizationSlug: t.String({ maxLength: SLUG.maxLength, description: "The organization's slug" }),
})
export const DirectoryRecordParams = t.Object({ ...DirectoryParams.properties, id: Uuid })

const pageQuery = {
  page: t.Optional(QueryInteger({ minimum: 1, maximum: 1_000_000 }, { title: 'page', default: 1, description: 'Page number, from 1' })),
  per_page: t.Optional(
    QueryInteger(
      { minimum: 1, maximum: PAGE_LIMIT.max },
      { title: 'per_page', default: PAGE_LIMIT.default, description: 'Records on a page' },
    ),
  ),
}
export const DirectoryPageQuery = t.Object(pageQuery)

export const DirectoryServiceQuery = t.Object({
  ...pageQuery,
  search: t.Optional(t.String({ maxLength: 200, description: "Words each found in the service's name, description or terms' names" })),
  taxonomy_term_id: t.Optional(t.String({ format: 'uuid', maxLength: 36, description: 'Only the services that carry this term' })),
  modified_after: t.Optional(t.String({ ...DateTime, description: 'Only the services changed after this time (their last_modified)' })),
})

/** An HSDS record, described by its schema's name in HSDS 3.0 (the standard's compiled schemas). */
const record = (name: string, hsdsSchema: string) =>
  Named(name, t.Object({}, { additionalProperties: true, description: `An HSDS 3.0 ${hsdsSchema} record (HSDS's ${hsdsSchema}.json)` }))

export const HsdsService = record('HsdsService', 'service')
export const HsdsOrganization = record('HsdsOrganization', 'organization')
export const HsdsServiceAtLocation = record('HsdsServiceAtLocation', 'service_at_location')

/** HSDS's page: the exception to the API's list convention (docs/api/conventions.md "Lists"), its paging in the body. */
export function HsdsPage(name: string, item: ReturnType<typeof record>) {
  const count = (description: string) => Int32({ minimum: 0, maximum: 2_147_483_647 }, { description })
  return Named(
    name,
    t.Object({
      total_items: count('Records that match, on every page'),
      total_pages: count('Pages of them; 0 when none matches'),
      page_number: count('This page, from 1'),
      size: count('Records on this page'),
      first_page: t.Boolean(),
      last_page: t.Boolean(),
      empty: t.Boolean({ description: 'No record on this page' }),
      contents: t.Array(item, { maxItems: PAGE_LIMIT.max }),
    }),
  )
}

export const HsdsAbout = Named(
  'HsdsAbout',
  t.Object({
    version: t.Literal('3.0'),
    profile: t.String({ format: 'uri', maxLength: 200, description: "The HSDS profile the directory follows: HSDS's own" }),
    openapi_url: t.String({ format: 'uri', maxLength: 200, description: "HSDS 3.0's API reference, which these routes follow" }),
  }),
)
