import { Elysia } from 'elysia'
import type { UseCases } from '../../application/use-cases'
import type { AuthenticationPlugin } from './authentication'
import { IdParams, PagedList, problems } from './common.schemas'
import { csvFile, importDocumentation } from './imports'
import { pagedResponse } from './paging'
import {
  CreateServiceBody,
  ServiceQuery,
  ServiceSchema,
  serviceView,
  TaxonomyTermSchema,
  TermImportQuery,
  TermQuerySchema,
  termView,
  UpdateServiceBody,
} from './services.schemas'

// docs/api/services.md
const TERMS_FILE = importDocumentation("vocabulary's terms", 'its columns: code, name and (optionally) description')

export function servicesRoutes(useCases: UseCases['services'], authentication: AuthenticationPlugin) {
  const { list, get, create, update, importTerms, searchTerms } = useCases

  const services = new Elysia({ name: 'services', prefix: '/api/services', detail: { tags: ['Services'] } })
    .use(authentication)
    .get(
      '',
      ({ actor, query, request, set }) => {
        const { partnerId, status, includeArchived } = query
        return pagedResponse(
          { query, request, set },
          (page) => list.execute(actor, { partnerId, status, includeArchived }, page),
          serviceView,
        )
      },
      {
        auth: true,
        query: ServiceQuery,
        response: { 200: PagedList(ServiceSchema), ...problems(400, 401) },
        detail: {
          operationId: 'listServices',
          summary: "List the organization's services, newest first",
          description: "Every role, every partner's services. Archived ones only with includeArchived=true. Paged.",
        },
      },
    )
    .post(
      '',
      async ({ actor, body, set }) => {
        set.status = 201
        return serviceView(await create.execute(actor, body))
      },
      {
        auth: true,
        body: CreateServiceBody,
        response: { 201: ServiceSchema, ...problems(400, 401, 403, 413, 415) },
        detail: { operationId: 'createService', summary: 'Add a service', description: 'org_admin; a partner_admin for its own partner.' },
      },
    )
    .get('/:id', async ({ actor, params }) => serviceView(await get.execute(actor, params.id)), {
      auth: true,
      params: IdParams,
      response: { 200: ServiceSchema, ...problems(400, 401, 404) },
      detail: { operationId: 'getService', summary: 'Read a service', description: 'Every role.' },
    })
    .put('/:id', async ({ actor, params, body }) => serviceView(await update.execute(actor, params.id, body)), {
      auth: true,
      params: IdParams,
      body: UpdateServiceBody,
      response: { 200: ServiceSchema, ...problems(400, 401, 403, 404, 413, 415) },
      detail: {
        operationId: 'updateService',
        summary: 'Update or archive a service',
        description:
          "org_admin; a partner_admin its own partner's services, which it cannot hand to another partner. A service is archived (isArchived), never deleted.",
      },
    })

  const terms = new Elysia({ name: 'taxonomy-terms', prefix: '/api/taxonomy-terms', detail: { tags: ['Services'] } })
    .use(authentication)
    .get(
      '',
      ({ actor, query, request, set }) =>
        pagedResponse(
          { query, request, set },
          (page) => searchTerms.execute(actor, { vocabulary: query.vocabulary, q: query.q }, page),
          termView,
        ),
      {
        auth: true,
        query: TermQuerySchema,
        response: { 200: PagedList(TaxonomyTermSchema), ...problems(400, 401) },
        detail: {
          operationId: 'listTaxonomyTerms',
          summary: 'Find imported taxonomy terms, by vocabulary then code',
          description: 'Every role: the terms a service may name.',
        },
      },
    )
    .post(
      '/import',
      ({ actor, query, request }) => importTerms.execute(actor, query.vocabulary, csvFile(request), { dryRun: query.dryRun ?? false }),
      {
        auth: true,
        query: TermImportQuery,
        response: TERMS_FILE.response,
        detail: {
          operationId: 'importTaxonomyTerms',
          summary: "Import a vocabulary's terms from a CSV file of code, name and description; a dry run answers what it would do",
          description:
            'org_admin. Each row needs a code and a name; a code the vocabulary has already, or an earlier row has, is skipped (its name kept). No vocabulary is shipped: import Open Eligibility, or a 211 taxonomy the organization holds a licence for.',
          requestBody: TERMS_FILE.requestBody,
        },
      },
    )

  return new Elysia({ name: 'services-area' }).use(services).use(terms)
}
