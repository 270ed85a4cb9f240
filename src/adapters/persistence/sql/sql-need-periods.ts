import { gte, lt, sql, type SQL } from 'drizzle-orm'
import type { NeedFilter } from '../../../application/ports/repositories/need-repository'
import { PERIOD_FILTERS } from '../../../domain/members/saved-view'
import type * as schema from '../sqlite/schema'

// The list's periods of creation and resolution (docs/api/needs.md "Reports": a figure's needs).

const COLUMN = { createdFrom: 'createdAt', createdTo: 'createdAt', resolvedFrom: 'resolvedAt', resolvedTo: 'resolvedAt' } as const

/** The bounds `filter` has, each a condition on its column; `prepared`: the placeholder named after its key. */
export function periodConditions(t: typeof schema.needs, filter: NeedFilter, prepared: boolean): SQL[] {
  return PERIOD_FILTERS.flatMap((key) => {
    const bound = filter[key]
    if (!bound) return []
    const value = prepared ? sql.placeholder(key) : bound
    return [key.endsWith('From') ? gte(t[COLUMN[key]], value) : lt(t[COLUMN[key]], value)]
  })
}

/** A prepared statement's values of the bounds: each time as its column stores it (each database its own way). */
export function periodValues(t: typeof schema.needs, filter: NeedFilter): Record<string, unknown> {
  return Object.fromEntries(PERIOD_FILTERS.flatMap((key) => (filter[key] ? [[key, t[COLUMN[key]].mapToDriverValue(filter[key]!)]] : [])))
}

/** A letter per bound a filter has, for the name of its prepared statement's shape (capitals: the other letters are not). */
export function periodShape(filter: NeedFilter): string {
  return PERIOD_FILTERS.map((key, i) => (filter[key] ? 'ABYZ'[i] : '')).join('')
}

/** Whether a filter bounds a period: its total is then counted on the needs, not read from kept counts. */
export const hasPeriod = (filter: NeedFilter) => PERIOD_FILTERS.some((key) => filter[key] !== undefined)
