// docs/api.md
export interface Organization {
  id: string
  name: string
  slug: string
  shortCode?: string
  maxConcurrency: number
  tcrStatus?: string
  phoneNumber?: string
  createdAt: Date
}

export const DEFAULT_MAX_CONCURRENCY = 5
export const SLUG_PATTERN = '^[a-z0-9]+(-[a-z0-9]+)*$'
export const SHORT_CODE_PATTERN = '^[A-Z]{4,6}$'
export const SLUG_MAX_LENGTH = 63
