import { useEffect, useState } from 'preact/hooks'
import { MAX_LENGTH } from '../../api-constants'
import { client, type Status } from '../shared/api'
import { t } from '../shared/i18n'
import { OutcomeLine, useOutcome } from '../shared/outcome'
import { go } from '../shared/router'
import type { components } from '../../schema'
import { PERIOD_KEYS, periodOf } from './inbox-period'

type View = components['schemas']['SavedView']
type Filters = View['filters']

/** The address's filters of the inbox as the API keeps them: `mine` is the member, a status list its first status. */
function filtersOf(query: URLSearchParams, me: string | undefined): Filters {
  const text = (key: string) => query.get(key) || undefined
  const status = text('status')
  const overdue = text('overdue')
  return {
    ...(status ? { status: status.split(',') as Status[] } : {}),
    ...(text('partner') ? { partnerId: text('partner') } : {}),
    ...(query.get('mine') === '1' && me ? { assignedTo: me } : {}),
    ...(overdue === '1' || overdue === 'true' ? { overdue: true } : {}),
    ...(text('q') ? { q: text('q') } : {}),
    ...(text('sort') ? { sort: text('sort') as Filters['sort'] } : {}),
    ...periodOf(query),
  }
}

/** A view's filters as the inbox's address. */
function queryOf(filters: Filters, me: string | undefined): Record<string, string | undefined> {
  return {
    status: filters.status?.join(','),
    partner: filters.partnerId,
    mine: filters.assignedTo && filters.assignedTo === me ? '1' : undefined,
    overdue: filters.overdue ? '1' : undefined,
    q: filters.q,
    sort: filters.sort,
    ...Object.fromEntries(PERIOD_KEYS.map((key) => [key, filters[key]])),
  }
}

/** The member's saved views (`/api/profile/views`): open one, save the filters shown under a name, delete one. */
export function SavedViews({ query, me }: { query: URLSearchParams; me: string | undefined }) {
  const [views, setViews] = useState<View[]>([])
  const [chosen, setChosen] = useState('')
  const load = () => read(() => client.GET('/api/profile/views', { params: { query: { limit: 50 } } }), setViews)
  const { outcome, read, run } = useOutcome(load)
  useEffect(() => void load(), [])
  const view = views.find((v) => v.id === chosen)

  return (
    <section class="saved-views" aria-labelledby="views-title">
      <h2 id="views-title">{t.views.title}</h2>
      <form class="filters" onSubmit={(event) => event.preventDefault()}>
        <div>
          <label for="saved-view">{t.views.pick}</label>
          <select id="saved-view" value={chosen} onChange={(event) => setChosen(event.currentTarget.value)}>
            <option value="">{t.views.none}</option>
            {views.map((v) => (
              <option key={v.id} value={v.id}>
                {v.name}
              </option>
            ))}
          </select>
        </div>
        <button type="button" disabled={!view} onClick={() => view && go(['needs'], queryOf(view.filters, me))}>
          {t.views.open}
        </button>
        <button
          type="button"
          disabled={!view}
          onClick={async () => {
            if (!view) return
            await run(() => client.DELETE('/api/profile/views/{id}', { params: { path: { id: view.id } } }), t.views.deleted(view.name))
            setChosen('')
          }}
        >
          {t.views.delete}
        </button>
      </form>
      <form
        class="filters"
        onSubmit={async (event) => {
          event.preventDefault()
          const form = event.currentTarget
          const name = String(new FormData(form).get('name')).trim()
          const body = { name, filters: filtersOf(query, me) }
          if (await run(() => client.POST('/api/profile/views', { body }), t.views.saved(name))) form.reset()
        }}
      >
        <div>
          <label for="view-name">{t.views.name}</label>
          <input id="view-name" name="name" required maxLength={MAX_LENGTH.NewSavedView.name} autocomplete="off" />
        </div>
        <button type="submit">{t.views.save}</button>
      </form>
      <OutcomeLine outcome={outcome} />
    </section>
  )
}
