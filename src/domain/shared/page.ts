// docs/api.md "Lists"
export const PAGE_LIMIT = { default: 25, max: 100 } as const

export interface PageRequest {
  page: number
  limit: number
}

export interface Page<T> {
  items: T[]
  total: number
}

export function offsetOf(request: PageRequest): number {
  return (request.page - 1) * request.limit
}
