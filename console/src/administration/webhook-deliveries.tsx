import { useEffect, useState } from 'preact/hooks'
import { client, type WebhookDelivery, type WebhookEndpoint } from '../shared/api'
import { formatDateTime } from '../shared/data'
import { language, t } from '../shared/i18n'
import { href } from '../shared/router'
import { authorized } from '../shared/session'
import { Table } from '../shared/table'

const PAGE_SIZE = 25

/** One endpoint's deliveries, newest first, paged by the address (`#/admin/webhooks/<id>?page=2`). */
export function WebhookDeliveries({ id, query }: { id: string; query: URLSearchParams }) {
  const page = Math.max(1, Number(query.get('page')) || 1)
  const [answer, setAnswer] = useState<{ page: number; endpoint?: WebhookEndpoint; deliveries: WebhookDelivery[]; total: number }>()
  useEffect(() => {
    void (async () => {
      const [endpoint, deliveries] = await Promise.all([
        authorized(() => client.GET('/api/webhook-endpoints/{id}', { params: { path: { id } } })),
        authorized(() =>
          client.GET('/api/webhook-endpoints/{id}/deliveries', { params: { path: { id }, query: { page, limit: PAGE_SIZE } } }),
        ),
      ])
      const total = Number(deliveries.response.headers.get('x-total-count') ?? 0)
      setAnswer({ page, ...(endpoint.data ? { endpoint: endpoint.data } : {}), deliveries: deliveries.data ?? [], total })
    })()
  }, [page])
  if (answer?.page !== page) return <p role="status">{t.loading}</p>
  if (!answer.endpoint)
    return (
      <p role="alert" class="error">
        {t.endpointNotFound}
      </p>
    )
  const pages = Math.max(1, Math.ceil(answer.total / PAGE_SIZE))
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">{t.deliveriesTo(answer.endpoint.url)}</h2>
      <p>
        <a href={href(['admin', 'webhooks'])}>{t.allEndpoints}</a>
      </p>
      {answer.deliveries.length === 0 ? (
        <p>{t.noDeliveries}</p>
      ) : (
        <Table label={t.deliveries} columns={[t.event, t.status, t.tries, t.lastAnswer, t.created, t.deliveredOrNext]}>
          {answer.deliveries.map((delivery) => (
            <tr key={delivery.id}>
              <td>
                <code>{delivery.eventType}</code>
              </td>
              <td>{t.deliveryStatuses[delivery.status]}</td>
              <td>{delivery.attempts}</td>
              <td class="wrap">{[delivery.lastStatusCode, delivery.lastError].filter(Boolean).join(' · ') || '—'}</td>
              <td>{formatDateTime(delivery.createdAt, language)}</td>
              <td>
                {delivery.deliveredAt
                  ? formatDateTime(delivery.deliveredAt, language)
                  : delivery.nextAttemptAt
                    ? t.nextTry(formatDateTime(delivery.nextAttemptAt, language))
                    : '—'}
              </td>
            </tr>
          ))}
        </Table>
      )}
      <nav class="paging" aria-label={t.deliveryPages(page, pages, answer.total)}>
        <p>{t.deliveryPages(page, pages, answer.total)}</p>
        {page > 1 && <a href={href(['admin', 'webhooks', id], { page: String(page - 1) })}>{t.previous}</a>}
        {page < pages && <a href={href(['admin', 'webhooks', id], { page: String(page + 1) })}>{t.next}</a>}
      </nav>
    </section>
  )
}
