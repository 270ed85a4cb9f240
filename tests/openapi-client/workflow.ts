import createClient from 'openapi-fetch'
import type { components, paths } from '../../console/schema'

type Need = components['schemas']['Need']

// A staff client written only against the types openapi-typescript generates from the served OpenAPI
// document (console/schema.d.ts, kept in step by tests/adapters/http/console-schema.test.ts): if the document
// stops describing what clients need, this file stops type-checking.

/** Registers a need for someone new, takes it on by its reference number and reads what happened. */
export async function takeOnANeed(baseUrl: string, accessToken: string) {
  const client = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${accessToken}` } })

  const partners = await client.GET('/api/partners', { params: { query: { limit: 10 } } })
  const partnerId = partners.data?.[0]?.id
  if (!partnerId) throw new Error(`no partner: ${partners.error?.detail}`)

  const created = await client.POST('/api/needs', {
    body: { partnerId, customFields: { firstName: 'Grace', lastName: 'Hopper', phone: '+15550100199' } },
  })
  if (!created.data) throw new Error(`create: ${created.error?.detail}`)
  const need: Need = created.data
  const reference = need.referenceNumber
  if (!need.constituentId) throw new Error('the need has no constituent')

  const updated = await client.PUT('/api/needs/{id}', { params: { path: { id: reference } }, body: { status: 'IN_PROGRESS' } })
  const history = await client.GET('/api/needs/{id}/history', { params: { path: { id: reference }, query: { page: 1, limit: 10 } } })
  const person = await client.GET('/api/constituents/{id}', { params: { path: { id: need.constituentId } } })
  const missing = await client.GET('/api/needs/{id}', { params: { path: { id: 'REQ-999999' } } })

  return {
    status: updated.data?.status,
    history: (history.data ?? []).map((change) => `${change.field}: ${change.from ?? '-'} → ${change.to ?? '-'}`),
    firstName: person.data?.firstName,
    notFound: missing.error?.detail,
  }
}
