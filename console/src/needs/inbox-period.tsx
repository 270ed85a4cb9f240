import { formatDateTime } from '../shared/data'
import { language, t } from '../shared/i18n'

/** The bounds of when needs were created or resolved, as a report's figure links them (`#/needs?resolvedFrom=…&resolvedTo=…`). */
export const PERIOD_KEYS = ['createdFrom', 'createdTo', 'resolvedFrom', 'resolvedTo'] as const
export type Period = Partial<Record<(typeof PERIOD_KEYS)[number], string>>

/** The address's bounds that are times; another value is left out rather than sent for the server to refuse. */
export function periodOf(query: URLSearchParams): Period {
  return Object.fromEntries(
    PERIOD_KEYS.flatMap((name) => {
      const value = query.get(name)
      return value && !Number.isNaN(Date.parse(value)) ? [[name, value]] : []
    }),
  )
}

/** The period the list is narrowed to, said, with a button to widen it again. */
export function PeriodShown({ period, onClear }: { period: Period; onClear: () => void }) {
  // In the page's language; the end is excluded, as the list's bound is ("before").
  const at = (value: string | undefined) => (value ? formatDateTime(value, language) : '…')
  const lines = [
    ...(period.createdFrom || period.createdTo ? [t.inboxPeriod.created(at(period.createdFrom), at(period.createdTo))] : []),
    ...(period.resolvedFrom || period.resolvedTo ? [t.inboxPeriod.resolved(at(period.resolvedFrom), at(period.resolvedTo))] : []),
  ]
  if (lines.length === 0) return null
  return (
    <p class="notice">
      {lines.join('; ')}{' '}
      <button type="button" class="secondary" onClick={onClear}>
        {t.inboxPeriod.clear}
      </button>
    </p>
  )
}
