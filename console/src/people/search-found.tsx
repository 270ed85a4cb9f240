import { client, type Constituent } from '../shared/api'
import { t } from '../shared/i18n'
import { failure } from '../shared/outcome'
import { authorized } from '../shared/session'

/** What a search found: its first page of people, newest first, and how many match in all (docs/api/conventions.md "Lists"). */
export interface Found {
  query: string
  people: Constituent[]
  total: number
  /** Counting stopped at `total`: more people match (X-Total-Count-Is-Lower-Bound). */
  moreThan: boolean
}

/** Searches constituents by name, phone or email: the `page` of `limit` found, or why the service refused. */
export async function searchPeople(query: string, limit: number, page = 1): Promise<Found | string> {
  const { data, error, response } = await authorized(() => client.GET('/api/constituents', { params: { query: { query, limit, page } } }))
  if (!data) return failure(response.status, error).text
  return {
    query,
    people: data,
    total: Number(response.headers.get('x-total-count') ?? data.length),
    moreThan: response.headers.get('x-total-count-is-lower-bound') === 'true',
  }
}

/** How many match, as the service counted ("more than 1,000" when it stopped), and, unpaged, that only the newest are shown. */
export function FoundStatus({ found, paged = false }: { found: Found; paged?: boolean }) {
  const fewerShown = !paged && found.people.length > 0 && (found.moreThan || found.total > found.people.length)
  return (
    <p role="status">
      {t.found(found.total, found.query, found.moreThan)}
      {fewerShown && ` ${t.newestShown(found.people.length)}`}
    </p>
  )
}
