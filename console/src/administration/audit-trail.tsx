import { useEffect, useState } from 'preact/hooks'
import { client, type AuditEvent } from '../shared/api'
import { formatDateTime, memberName, useMembers, useProfile } from '../shared/data'
import { language, t } from '../shared/i18n'
import { PAGE_SIZE, pageOf, Paging } from '../shared/paging'
import { go } from '../shared/router'
import { authorized } from '../shared/session'
import { Answered, failure } from '../shared/outcome'
import { Table } from '../shared/table'

type Action = AuditEvent['action']
type RecordType = AuditEvent['recordType']
/** The filters as the address keeps them (`#/audit?member=…&since=2026-11-01T09:00`): times as the browser's local time. */
const FILTERS = ['member', 'recordType', 'recordId', 'action', 'since', 'until'] as const
type Filters = Partial<Record<(typeof FILTERS)[number], string>>

/** A local time of a datetime-local field as the API's RFC 3339 time. */
const rfc3339 = (local: string | undefined) => (local ? new Date(local).toISOString() : undefined)

/** The organization's audit trail, newest first, filtered and paged by the address. */
export function AuditTrail({ query }: { query: URLSearchParams }) {
  const profile = useProfile()
  const members = useMembers(profile)
  const s = t.auditScreen
  const filters: Filters = Object.fromEntries(FILTERS.map((name) => [name, query.get(name) ?? undefined]))
  const page = pageOf(query)
  const key = JSON.stringify([filters, page])
  const [answer, setAnswer] = useState<{ key: string; result: { events: AuditEvent[]; total: number } | string }>()
  const result = answer?.key === key ? answer.result : undefined
  useEffect(() => {
    let current = true
    const { member, recordType, recordId, action, since, until } = filters
    void authorized(() =>
      client.GET('/api/audit-events', {
        params: {
          query: {
            page,
            limit: PAGE_SIZE,
            ...(member ? { memberId: member } : {}),
            ...(recordType ? { recordType: recordType as RecordType } : {}),
            ...(recordId ? { recordId } : {}),
            ...(action ? { action: action as Action } : {}),
            ...(since ? { since: rfc3339(since) } : {}),
            ...(until ? { until: rfc3339(until) } : {}),
          },
        },
      }),
    ).then(({ data, error, response }) => {
      if (!current) return
      const total = Number(response.headers.get('x-total-count') ?? data?.length ?? 0)
      setAnswer({ key, result: data ? { events: data, total } : failure(response.status, error).text })
    })
    return () => {
      current = false
    }
  }, [key])

  function apply(event: Event) {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    go(['admin', 'audit'], Object.fromEntries(FILTERS.map((name) => [name, String(form.get(name) ?? '').trim() || undefined])))
  }

  return (
    <>
      <h2>{t.adminSections.audit}</h2>
      <form class="filters" aria-label={t.filters} onSubmit={apply}>
        <div>
          <label for="audit-member">{s.member}</label>
          <select id="audit-member" name="member">
            <option value="">{s.anyone}</option>
            {members.map((member) => (
              <option key={member.id} value={member.id} selected={member.id === filters.member}>
                {member.fullName ?? member.email}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="audit-action">{s.action}</label>
          <select id="audit-action" name="action">
            <option value="">{t.all}</option>
            {(Object.keys(s.actions) as Action[]).map((action) => (
              <option key={action} value={action} selected={action === filters.action}>
                {s.actions[action]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="audit-record-type">{s.recordType}</label>
          <select id="audit-record-type" name="recordType">
            <option value="">{t.all}</option>
            {(Object.keys(s.recordTypes) as RecordType[]).map((type) => (
              <option key={type} value={type} selected={type === filters.recordType}>
                {s.recordTypes[type]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="audit-record-id">{s.recordId}</label>
          <input id="audit-record-id" name="recordId" autocomplete="off" defaultValue={filters.recordId ?? ''} />
        </div>
        <div>
          <label for="audit-since">{s.since}</label>
          <input id="audit-since" name="since" type="datetime-local" defaultValue={filters.since ?? ''} />
        </div>
        <div>
          <label for="audit-until">{s.until}</label>
          <input id="audit-until" name="until" type="datetime-local" defaultValue={filters.until ?? ''} />
        </div>
        <button type="submit">{s.apply}</button>
      </form>
      <Answered answer={result}>
        {(result) => (
          <>
            <Table label={t.adminSections.audit} columns={[s.when, s.who, s.action, s.record, s.fields, s.requestId]}>
              {result.events.map((event) => (
                <tr key={event.id}>
                  <td>{formatDateTime(event.at, language)}</td>
                  <td>{memberName(members, profile, event.memberId, { me: t.me, someone: t.someone, nobody: s.nobodyLoggedIn })}</td>
                  <td>{s.actions[event.action]}</td>
                  <td>
                    {s.recordTypes[event.recordType]}
                    <div class="meta">
                      <code>{event.recordId}</code>
                    </div>
                  </td>
                  <td class="wraps">{event.fields?.join(', ') ?? '—'}</td>
                  <td>
                    <code class="meta">{event.requestId ?? '—'}</code>
                  </td>
                </tr>
              ))}
            </Table>
            {result.events.length === 0 && <p>{s.noEvents}</p>}
            <Paging path={['admin', 'audit']} filters={filters} page={page} total={result.total} />
          </>
        )}
      </Answered>
    </>
  )
}
