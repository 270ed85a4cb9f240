import { createHash } from 'node:crypto'
import { Elysia } from 'elysia'
import type { PublishedDirectory } from '../../../application/directory/get-published-directory'
import type { UseCases } from '../../../application/use-cases'
import { keptByQuery } from '../../../domain/services/directory'
import { NotFoundError } from '../../../domain/errors'
import { problems } from '../common.schemas'
import { rateLimited, type RateLimits } from '../rate-limits'
import { organizationBrief, organizationRecord, serviceAtLocation, serviceBrief, serviceRecord } from './hsds-mapping'
import { hsdsPage } from './hsds-paging'
import {
  DirectoryPageQuery,
  DirectoryParams,
  DirectoryRecordParams,
  DirectoryServiceQuery,
  HsdsAbout,
  HsdsOrganization,
  HsdsPage,
  HsdsService,
  HsdsServiceAtLocation,
} from './hsds-schemas'

// docs/directory.md: an organization's directory of services as HSDS 3.0, anonymous and read-only, once it publishes it.

const HSDS_PROFILE = 'https://docs.openreferral.org/en/v3.0/hsds/overview.html'
const HSDS_OPENAPI = 'https://raw.githubusercontent.com/openreferral/specification/3.0/schema/openapi.json'
/** A directory changes seldom and is read by machines that poll: five minutes, then a check by ETag. */
const CACHE_CONTROL = 'public, max-age=300'

type Context = {
  params: { organizationSlug: string }
  request: Request
  set: { status?: number | string; headers: Record<string, string | number> }
}

/** One success each, as every route documents: 304 (If-None-Match) and 308 (a former slug) are in the description. */
const answers = (ok: ReturnType<typeof HsdsPage> | typeof HsdsAbout | typeof HsdsService) => rateLimited({ 200: ok, ...problems(400, 404) })
const CACHING =
  'Anonymous. 404 unless the organization publishes its directory (publishDirectory). Cached: ETag and Cache-Control, 304 to an If-None-Match of the ETag. A slug the organization left is 308 to the same address under its slug now.'

export function hsdsRoutes(useCases: UseCases['services'], limits: RateLimits) {
  const { publishedDirectory } = useCases

  /** Reads the directory, answers a former slug 308 and an unchanged answer 304, and caches the others by ETag. */
  const answer = async ({ params, request, set }: Context, shape: (d: PublishedDirectory) => unknown) => {
    const directory = await publishedDirectory.execute(params.organizationSlug)
    const { slug } = directory.organization
    if (slug !== params.organizationSlug) {
      const url = new URL(request.url)
      set.headers.location = url.pathname.replace(`/hsds/${params.organizationSlug}`, `/hsds/${slug}`) + url.search
      set.status = 308
      return undefined
    }
    const body = shape(directory)
    const etag = `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url')}"`
    set.headers.etag = etag
    set.headers['cache-control'] = CACHE_CONTROL
    if (request.headers.get('if-none-match') === etag) {
      set.status = 304
      return undefined
    }
    return body
  }
  const serviceOf = (d: PublishedDirectory, id: string) => {
    const service = d.services.find((s) => s.id === id)
    if (!service) throw new NotFoundError('Service')
    return service
  }
  const atLocations = (d: PublishedDirectory) =>
    d.services.flatMap((s) => d.partners.filter((p) => p.id === s.partnerId).map((partner) => ({ service: s, partner })))
  const detail = (operationId: string, summary: string) => ({ operationId, summary, description: CACHING, security: [] })

  return new Elysia({ name: 'hsds', prefix: '/hsds', detail: { tags: ['Directory (HSDS)'] } })
    .use(limits)
    .get('/:organizationSlug', (context) => answer(context, () => ({ version: '3.0', profile: HSDS_PROFILE, openapi_url: HSDS_OPENAPI })), {
      rateLimit: 'publicDirectory',
      params: DirectoryParams,
      response: answers(HsdsAbout),
      detail: detail('getHsdsAbout', 'What the directory is: its HSDS version and profile'),
    })
    .get(
      '/:organizationSlug/services',
      (context) =>
        answer(context, (d) => {
          const { search, taxonomy_term_id, modified_after } = context.query
          const query = { search, taxonomyTermId: taxonomy_term_id, ...(modified_after ? { modifiedAfter: new Date(modified_after) } : {}) }
          return hsdsPage(
            d.services.filter((s) => keptByQuery(s, query)),
            context.query,
            (s) => serviceBrief(s, d.organization),
          )
        }),
      {
        rateLimit: 'publicDirectory',
        params: DirectoryParams,
        query: DirectoryServiceQuery,
        response: answers(HsdsPage('HsdsServicePage', HsdsService)),
        detail: detail('listHsdsServices', 'The published services, newest first, in HSDS pages; the filters narrow each other'),
      },
    )
    .get('/:organizationSlug/services/:id', (context) => answer(context, (d) => serviceRecord(serviceOf(d, context.params.id), d)), {
      rateLimit: 'publicDirectory',
      params: DirectoryRecordParams,
      response: answers(HsdsService),
      detail: detail('getHsdsService', 'A published service, every nested record with it'),
    })
    .get(
      '/:organizationSlug/organizations',
      (context) => answer(context, (d) => hsdsPage([d.organization], context.query, organizationBrief)),
      {
        rateLimit: 'publicDirectory',
        params: DirectoryParams,
        query: DirectoryPageQuery,
        response: answers(HsdsPage('HsdsOrganizationPage', HsdsOrganization)),
        detail: detail('listHsdsOrganizations', "The directory's one organization, in an HSDS page"),
      },
    )
    .get(
      '/:organizationSlug/organizations/:id',
      (context) =>
        answer(context, (d) => {
          if (d.organization.id !== context.params.id) throw new NotFoundError('Organization')
          return organizationRecord(d)
        }),
      {
        rateLimit: 'publicDirectory',
        params: DirectoryRecordParams,
        response: answers(HsdsOrganization),
        detail: detail('getHsdsOrganization', 'The organization, with its locations (its partners) and its services'),
      },
    )
    .get(
      '/:organizationSlug/service_at_locations',
      (context) =>
        answer(context, (d) =>
          hsdsPage(atLocations(d), context.query, ({ service, partner }) =>
            serviceAtLocation(service, partner, d.organization, serviceBrief(service, d.organization), false),
          ),
        ),
      {
        rateLimit: 'publicDirectory',
        params: DirectoryParams,
        query: DirectoryPageQuery,
        response: answers(HsdsPage('HsdsServiceAtLocationPage', HsdsServiceAtLocation)),
        detail: detail('listHsdsServicesAtLocations', "Each published service at its partner's location, in HSDS pages"),
      },
    )
    .get(
      '/:organizationSlug/service_at_locations/:id',
      (context) =>
        answer(context, (d) => {
          const found = atLocations(d).find(
            ({ service, partner }) => serviceAtLocation(service, partner, d.organization).id === context.params.id,
          )
          if (!found) throw new NotFoundError('Service at location')
          return serviceAtLocation(found.service, found.partner, d.organization, serviceRecord(found.service, d, false))
        }),
      {
        rateLimit: 'publicDirectory',
        params: DirectoryRecordParams,
        response: answers(HsdsServiceAtLocation),
        detail: detail('getHsdsServiceAtLocation', 'A service at its location, the service whole'),
      },
    )
}
