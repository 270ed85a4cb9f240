import { PAGE_LIMIT } from '../../../domain/shared/page'

// docs/directory.md "Paging and filters": HSDS's page, its paging in the body.

export interface HsdsPageOf<T> {
  total_items: number
  total_pages: number
  page_number: number
  size: number
  first_page: boolean
  last_page: boolean
  empty: boolean
  contents: T[]
}

/** Page `page` (from 1) of `perPage` records; no record at all is 0 pages, and every page of it empty. */
export function hsdsPage<T, V>(all: readonly T[], query: { page?: number; per_page?: number }, view: (item: T) => V): HsdsPageOf<V> {
  const page = query.page ?? 1
  const perPage = query.per_page ?? PAGE_LIMIT.default
  const contents = all.slice((page - 1) * perPage, page * perPage).map(view)
  const totalPages = Math.ceil(all.length / perPage)
  return {
    total_items: all.length,
    total_pages: totalPages,
    page_number: page,
    size: contents.length,
    first_page: page === 1,
    last_page: page >= totalPages,
    empty: contents.length === 0,
    contents,
  }
}
