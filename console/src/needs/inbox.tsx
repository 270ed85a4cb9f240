import { useEffect, useState } from 'preact/hooks'
import { client, STATUSES, type Need, type Status } from '../shared/api'
import { may, useMembers, usePartners, useProfile } from '../shared/data'
import { ExportButton } from '../shared/exports'
import { t } from '../shared/i18n'
import { useLiveChanges } from '../shared/live'
import { go } from '../shared/router'
import { PAGE_SIZE, pageOf, Paging } from '../shared/paging'
import { authorized } from '../shared/session'
import { BulkBar, SelectNeed, useSelection } from './bulk-bar'
import { NeedsTable, PageJump, sortOf } from './inbox-table'
import { SavedViews } from './saved-views'
import { PERIOD_KEYS, periodOf, PeriodShown } from './inbox-period'

/** The needs table, searched, filtered, sorted and paged by the address's query (`#/needs?q=rent&status=NEW&sort=dueDate&page=2`). */
export function Inbox({ query }: { query: URLSearchParams }) {
  const partners = usePartners()
  const profile = useProfile()
  const me = profile?.id
  const members = useMembers(profile)
  const status = query.get('status') ?? ''
  const partnerId = query.get('partner') ?? ''
  const mine = query.get('mine') === '1'
  const q = query.get('q')?.trim() ?? ''
  const overdue = query.get('overdue') === '1'
  const attention = query.get('attention') === '1'
  const period = periodOf(query)
  const sort = sortOf(query)
  const page = pageOf(query)
  // The answer remembers which filters and page it is for: until the next arrives, the table is not shown under another page's label.
  const [reloads, setReloads] = useState(0)
  const key = JSON.stringify([status, partnerId, mine, me, q, overdue, attention, period, sort, page, reloads])
  const selection = useSelection(key)
  const bulk = may(profile, 'needs:update')
  const [answer, setAnswer] = useState<{ key: string; result: { needs: Need[]; total: number; moreThan: boolean } | 'error' }>()
  const result = answer?.key === key ? answer.result : undefined
  useEffect(() => {
    document.title = `${t.needs} · ${t.appName}`
  }, [])

  // The list's filters, which its export keeps too.
  const filtered = {
    ...(status ? { status: [status as Status] } : {}),
    ...(partnerId ? { partnerId } : {}),
    ...(mine && me ? { assignedTo: me } : {}),
    ...(q ? { q } : {}),
    ...(overdue ? { overdue: true } : {}),
    ...(attention ? { attention: true } : {}),
    ...period,
  }
  // A need created or changed anywhere reads the page again, without a reload.
  const changes = useLiveChanges((event) => event.type.startsWith('need.'))
  useEffect(() => {
    if (mine && !me) return
    let current = true
    void authorized(() =>
      client.GET('/api/needs', { params: { query: { page, limit: PAGE_SIZE, ...filtered, ...(sort ? { sort } : {}) } } }),
    ).then(({ data, response }) => {
      const total = Number(response.headers.get('x-total-count') ?? data?.length)
      const moreThan = response.headers.get('x-total-count-is-lower-bound') === 'true'
      if (current) setAnswer({ key, result: data ? { needs: data, total, moreThan } : 'error' })
    })
    return () => {
      current = false
    }
  }, [key, changes])

  const filters = {
    status,
    partner: partnerId,
    mine: mine ? '1' : undefined,
    q: q || undefined,
    overdue: overdue ? '1' : undefined,
    attention: attention ? '1' : undefined,
    ...period,
  }
  const sorted = { ...filters, sort }
  const change = (patch: Record<string, string | undefined>) => go(['needs'], { ...sorted, ...patch, page: undefined })

  return (
    <>
      <h1>{t.needs}</h1>
      <OpenByReference />
      <form
        class="inline inbox-search"
        role="search"
        onSubmit={(event) => {
          event.preventDefault()
          change({ q: String(new FormData(event.currentTarget).get('q')).trim() || undefined })
        }}
      >
        <div>
          <label for="needs-query">{t.inboxSearch.search}</label>
          <input id="needs-query" name="q" type="search" defaultValue={q} autocomplete="off" aria-describedby="needs-query-hint" />
          <p id="needs-query-hint" class="meta">
            {t.inboxSearch.searchHint}
          </p>
        </div>
        <button type="submit">{t.inboxSearch.searchButton}</button>
      </form>
      <form class="filters" aria-label={t.filters} onSubmit={(event) => event.preventDefault()}>
        <div>
          <label for="filter-status">{t.status}</label>
          <select id="filter-status" value={status} onChange={(event) => change({ status: event.currentTarget.value })}>
            <option value="">{t.all}</option>
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {t.statuses[value]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="filter-partner">{t.partner}</label>
          <select id="filter-partner" value={partnerId} onChange={(event) => change({ partner: event.currentTarget.value })}>
            <option value="">{t.all}</option>
            {partners.map((partner) => (
              <option key={partner.id} value={partner.id}>
                {partner.name}
              </option>
            ))}
          </select>
        </div>
        <FilterCheck id="filter-mine" checked={mine} label={t.assignedToMe} onChange={(on) => change({ mine: on ? '1' : undefined })} />
        <FilterCheck
          id="filter-overdue"
          checked={overdue}
          label={t.inboxSearch.overdueOnly}
          onChange={(on) => change({ overdue: on ? '1' : undefined })}
        />
        <FilterCheck
          id="filter-attention"
          checked={attention}
          label={t.texts.attentionOnly}
          onChange={(on) => change({ attention: on ? '1' : undefined })}
        />
      </form>
      <PeriodShown period={period} onClear={() => change(Object.fromEntries(PERIOD_KEYS.map((name) => [name, undefined])))} />
      <SavedViews query={query} me={me} />
      {may(profile, 'records:export') && (
        <ExportButton
          label={t.exportNeeds}
          call={() => client.GET('/api/needs/export', { params: { query: { format: 'csv', ...filtered } }, parseAs: 'blob' })}
        />
      )}
      {/* Outside the list, so what came of a change stays said while the list is read again. */}
      <BulkBar
        needs={result && result !== 'error' ? result.needs : []}
        {...{ selection, profile, members, partners }}
        onChanged={() => setReloads((n) => n + 1)}
      />
      {!result && <p role="status">{t.loading}</p>}
      {result === 'error' && (
        <p role="alert" class="error">
          {t.forbidden}
        </p>
      )}
      {result && result !== 'error' && (
        <>
          <NeedsTable
            needs={result.needs}
            sort={sort}
            defaultSort={overdue ? 'dueDate' : '-createdAt'}
            filters={filters}
            partners={partners}
            members={members}
            profile={profile}
            {...(bulk ? { select: (need: Need) => <SelectNeed need={need} selection={selection} /> } : {})}
          />
          {result.needs.length === 0 && <p>{t.noNeeds}</p>}
          <Paging
            path={['needs']}
            filters={sorted}
            page={page}
            total={result.total}
            label={result.moreThan ? (shown, _pages, total) => t.inboxSearch.moreThan(shown, total) : t.pageOf}
          />
          <PageJump page={page} pages={Math.max(1, Math.ceil(result.total / PAGE_SIZE))} filters={sorted} />
        </>
      )}
    </>
  )
}

/** A box where a reference number read out on the phone opens its need. */
function OpenByReference() {
  return (
    <form
      class="open-reference"
      role="search"
      onSubmit={(event) => {
        event.preventDefault()
        const reference = String(new FormData(event.currentTarget).get('reference')).trim().toUpperCase()
        if (reference) go(['needs', reference])
      }}
    >
      <label for="reference">{t.referenceNumber}</label>
      <input id="reference" name="reference" autocomplete="off" />
      <button type="submit">{t.open}</button>
    </form>
  )
}

/** A filter of the inbox that is on or off. */
function FilterCheck(props: { id: string; checked: boolean; label: string; onChange: (on: boolean) => void }) {
  return (
    <div class="check">
      <input id={props.id} type="checkbox" checked={props.checked} onChange={(event) => props.onChange(event.currentTarget.checked)} />
      <label for={props.id}>{props.label}</label>
    </div>
  )
}
