import { t } from './i18n'
import { href } from './router'

export const PAGE_SIZE = 25

/** The page of a list, from the address's query (`page=2`), 1 when absent or not a page. */
export function pageOf(query: URLSearchParams): number {
  return Math.max(1, Number(query.get('page')) || 1)
}

/** "Page 2 of 7" and links to the pages beside it, the list's filters kept. */
export function Paging({
  path,
  filters,
  page,
  total,
  label = t.pageOfTotal,
}: {
  path: string[]
  filters: Record<string, string | undefined>
  page: number
  total: number
  label?: (page: number, pages: number, total: number) => string
}) {
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE))
  const text = label(page, pages, total)
  return (
    <nav class="paging" aria-label={text}>
      <p>{text}</p>
      {page > 1 && <a href={href(path, { ...filters, page: String(page - 1) })}>{t.previous}</a>}
      {page < pages && <a href={href(path, { ...filters, page: String(page + 1) })}>{t.next}</a>}
    </nav>
  )
}
