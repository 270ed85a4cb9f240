import { useEffect, useState } from 'preact/hooks'
import type { components } from '../../schema'
import { client } from '../shared/api'
import { formatDateTime } from '../shared/data'
import { language, t } from '../shared/i18n'
import { Answered, failure } from '../shared/outcome'
import { PAGE_SIZE, pageOf, Paging } from '../shared/paging'
import { authorized } from '../shared/session'
import { Table } from '../shared/table'

type UnsentMessage = components['schemas']['UnsentMessage']

/** What would have been sent with no provider set (docs/api/organization.md "Development outbox"), newest first, paged by the address. */
export function DevelopmentOutbox({ query }: { query: URLSearchParams }) {
  const s = t.outboxScreen
  const page = pageOf(query)
  const [answer, setAnswer] = useState<{ page: number; result: { messages: UnsentMessage[]; total: number } | string }>()
  const result = answer?.page === page ? answer.result : undefined
  useEffect(() => {
    let current = true
    void authorized(() => client.GET('/api/organizations/outbox', { params: { query: { page, limit: PAGE_SIZE } } })).then(
      ({ data, error, response }) => {
        if (!current) return
        const total = Number(response.headers.get('x-total-count') ?? data?.length ?? 0)
        setAnswer({ page, result: data ? { messages: data, total } : failure(response.status, error).text })
      },
    )
    return () => {
      current = false
    }
  }, [page])

  return (
    <>
      <h2>{t.adminSections.outbox}</h2>
      <p>{s.intro}</p>
      <Answered answer={result}>
        {(result) => (
          <>
            <Table label={t.adminSections.outbox} columns={[s.when, s.channel, s.to, s.message]}>
              {result.messages.map((message) => (
                <tr key={message.id}>
                  <td>{formatDateTime(message.createdAt, language)}</td>
                  <td>{s.channels[message.channel]}</td>
                  <td>{message.recipient}</td>
                  <td class="wraps">
                    {message.subject && <strong>{message.subject}</strong>}
                    <pre class="message-body">{message.body}</pre>
                  </td>
                </tr>
              ))}
            </Table>
            {result.messages.length === 0 && <p>{s.empty}</p>}
            <Paging path={['admin', 'outbox']} filters={{}} page={page} total={result.total} />
          </>
        )}
      </Answered>
    </>
  )
}
