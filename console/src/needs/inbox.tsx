import { useEffect, useState } from 'preact/hooks'
import { client, STATUSES, type Need, type Status } from '../shared/api'
import { formatDate, may, memberName, partnerName, useMembers, usePartners, useProfile } from '../shared/data'
import { ExportButton } from '../shared/exports'
import { language, t } from '../shared/i18n'
import { useLiveChanges } from '../shared/live'
import { go, href } from '../shared/router'
import { PAGE_SIZE, pageOf, Paging } from '../shared/paging'
import { authorized } from '../shared/session'
import { Table } from '../shared/table'
import { BulkBar, SelectNeed, useSelection } from './bulk-bar'
import { SavedViews } from './saved-views'

/** The needs table, filtered and paged by the address's query (`#/needs?status=NEW&page=2`). */
export function Inbox({ query }: { query: URLSearchParams }) {
  const partners = usePartners()
  const profile = useProfile()
  const me = profile?.id
  const members = useMembers(profile)
  const status = query.get('status') ?? ''
  const partnerId = query.get('partner') ?? ''
  const mine = query.get('mine') === '1'
  const page = pageOf(query)
  // The answer remembers which filters and page it is for: until the next arrives, the table is not shown under another page's label.
  const [reloads, setReloads] = useState(0)
  const key = JSON.stringify([status, partnerId, mine, me, page, reloads])
  const selection = useSelection(key)
  const bulk = may(profile, 'needs:update')
  const [answer, setAnswer] = useState<{ key: string; result: { needs: Need[]; total: number } | 'error' }>()
  const result = answer?.key === key ? answer.result : undefined
  useEffect(() => {
    document.title = `${t.needs} · ${t.appName}`
  }, [])

  // The list's filters, which its export keeps too.
  const filtered = {
    ...(status ? { status: [status as Status] } : {}),
    ...(partnerId ? { partnerId } : {}),
    ...(mine && me ? { assignedTo: me } : {}),
  }
  // A need created or changed anywhere reads the page again, without a reload.
  const changes = useLiveChanges((event) => event.type.startsWith('need.'))
  useEffect(() => {
    if (mine && !me) return
    let current = true
    void authorized(() => client.GET('/api/needs', { params: { query: { page, limit: PAGE_SIZE, ...filtered } } })).then(
      ({ data, response }) => {
        if (current)
          setAnswer({ key, result: data ? { needs: data, total: Number(response.headers.get('x-total-count') ?? data.length) } : 'error' })
      },
    )
    return () => {
      current = false
    }
  }, [key, changes])

  const filters = { status, partner: partnerId, mine: mine ? '1' : undefined }
  const change = (patch: Record<string, string | undefined>) => go(['needs'], { ...filters, ...patch, page: undefined })

  return (
    <>
      <h1>{t.needs}</h1>
      <OpenByReference />
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
        <div class="check">
          <input
            id="filter-mine"
            type="checkbox"
            checked={mine}
            onChange={(event) => change({ mine: event.currentTarget.checked ? '1' : undefined })}
          />
          <label for="filter-mine">{t.assignedToMe}</label>
        </div>
      </form>
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
          <Table
            label={t.needs}
            columns={[t.reference, t.status, t.partner, t.assignee, t.due, t.created, ...(bulk ? [t.bulk.select] : [])]}
          >
            {result.needs.map((need) => (
              <tr key={need.id}>
                <td>
                  <a href={href(['needs', need.referenceNumber])}>{need.referenceNumber}</a>
                </td>
                <td>{t.statuses[need.status]}</td>
                <td>{partnerName(partners, need.partnerId)}</td>
                <td>{memberName(members, profile, need.assignedTo, t)}</td>
                <td>{formatDate(need.dueDate, language)}</td>
                <td>{formatDate(need.createdAt, language)}</td>
                {bulk && (
                  <td>
                    <SelectNeed need={need} selection={selection} />
                  </td>
                )}
              </tr>
            ))}
          </Table>
          {result.needs.length === 0 && <p>{t.noNeeds}</p>}
          <Paging path={['needs']} filters={filters} page={page} total={result.total} label={t.pageOf} />
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
