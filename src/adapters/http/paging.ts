import { PAGE_LIMIT, type Page, type PageRequest } from '../../domain/shared/page'

/** The page a list query asks for, with the defaults of docs/api/conventions.md "Lists". */
export function pageOf(query: { page?: number; limit?: number }): PageRequest {
  return { page: query.page ?? 1, limit: query.limit ?? PAGE_LIMIT.default }
}

/**
 * Paging travels in headers so the body stays the interface's plain array (docs/api/conventions.md "Lists"):
 * X-Total-Count and an RFC 8288 Link header with first, prev, next and last. A total counted up to a bound
 * (Page.totalIsLowerBound) says so in X-Total-Count-Is-Lower-Bound; it reaches at least the end of this page
 * and more records match, so a next page exists, and the last one is not known.
 */
export function pagingHeaders(request: Request, page: PageRequest, result: Page<unknown>): Record<string, string> {
  const url = new URL(request.url)
  const lastPage = Math.max(1, Math.ceil(result.total / page.limit))
  // One copy of the query for the four links, `page` and `limit` where they were (or appended, in that
  // order); each link then sets its page in place.
  const params = url.searchParams
  params.set('page', '1')
  params.set('limit', String(page.limit))
  const linkTo = (n: number, rel: string) => {
    params.set('page', String(n))
    return `<${url.pathname}?${params}>; rel="${rel}"`
  }
  const links = [linkTo(1, 'first')]
  if (page.page > 1) links.push(linkTo(Math.min(page.page - 1, lastPage), 'prev'))
  if (page.page < lastPage || result.totalIsLowerBound) links.push(linkTo(page.page + 1, 'next'))
  if (!result.totalIsLowerBound) links.push(linkTo(lastPage, 'last'))
  const headers: Record<string, string> = { 'x-total-count': String(result.total), link: links.join(', ') }
  if (result.totalIsLowerBound) headers['x-total-count-is-lower-bound'] = 'true'
  return headers
}

/**
 * A list route's whole answer: loads the asked page, puts the paging headers on the response and answers
 * the plain array of `view`s.
 */
export async function pagedResponse<T, V>(
  context: { query: { page?: number; limit?: number }; request: Request; set: { headers: Record<string, unknown> } },
  load: (page: PageRequest) => Promise<Page<T>>,
  view: (item: T) => V,
): Promise<V[]> {
  const page = pageOf(context.query)
  const result = await load(page)
  Object.assign(context.set.headers, pagingHeaders(context.request, page, result))
  return result.items.map(view)
}
