// docs/api/conventions.md "Lists"
export const PAGE_LIMIT = { default: 25, max: 100 } as const

export interface PageRequest {
  page: number
  limit: number
}

export interface Page<T> {
  items: T[]
  total: number
  /**
   * Counting stopped at `total`: more records than that match. Only a search's total is bounded
   * (`boundedTotal`); every other list counts exactly and leaves this out.
   */
  totalIsLowerBound?: true
}

export function offsetOf(request: PageRequest): number {
  return (request.page - 1) * request.limit
}

/**
 * How far a bounded count reads for `request`: `bound` records, or to the end of the page asked for when that
 * is further, so that a page past the bound still knows whether another follows it (docs/api/conventions.md "Lists").
 * A count reads one record more than this, to tell "exactly" from "more".
 */
export function countCap(request: PageRequest, bound: number): number {
  return Math.max(bound, offsetOf(request) + request.limit)
}

/** The total of a count that read up to `cap + 1` records (`countCap`) and found `counted`. */
export function boundedTotal(counted: number, cap: number): Pick<Page<unknown>, 'total' | 'totalIsLowerBound'> {
  return counted > cap ? { total: cap, totalIsLowerBound: true } : { total: counted }
}

/**
 * Where a walk through a list in its order (newest `createdAt` first, `id` as tie-break) stopped: the next
 * batch starts after this record. Unlike an offset, it skips nothing and repeats nothing when records are
 * added meanwhile, and the database finds its place through the list's index.
 */
export interface Keyset {
  createdAt: Date
  id: string
}

/** Newest first, id as tie-break: the order of every list (docs/api/conventions.md "Lists"). */
export function newestFirst(a: Keyset, b: Keyset): number {
  return b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
}

/** Whether `record` comes after `keyset` in list order. */
export function isAfter(record: Keyset, keyset: Keyset): boolean {
  const a = record.createdAt.getTime()
  const b = keyset.createdAt.getTime()
  return a < b || (a === b && record.id < keyset.id)
}
