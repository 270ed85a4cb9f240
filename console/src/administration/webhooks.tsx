import { LIST_LIMIT, MAX_LENGTH, VALUES } from '../../api-constants'
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import { client, type WebhookEndpoint } from '../shared/api'
import { CopyButton } from '../shared/copy-button'
import { everyPage } from '../shared/data'
import { describedBy, FieldProblem, FormOutcome } from '../shared/field-errors'
import { OutcomeLine, useOutcome } from '../shared/outcome'
import { t } from '../shared/i18n'
import { href } from '../shared/router'
import { Table } from '../shared/table'

type EventType = WebhookEndpoint['events'][number]

/** The organization's webhook endpoints (docs/events.md): added with their events, disabled and enabled again. */
export function WebhooksScreen() {
  const [endpoints, setEndpoints] = useState<WebhookEndpoint[]>()
  const [secret, setSecret] = useState<{ url: string; secret: string }>()
  async function load() {
    await read(
      () => everyPage((page) => client.GET('/api/webhook-endpoints', { params: { query: { page, limit: LIST_LIMIT } } })),
      setEndpoints,
    )
  }
  const { outcome, read, run } = useOutcome(load)
  // The new endpoint's outcome is the form's, beside its button.
  const adding = useOutcome(load)
  useEffect(() => void load(), [])

  async function create(event: Event) {
    event.preventDefault()
    const element = event.currentTarget as HTMLFormElement
    const form = new FormData(element)
    const body = { url: String(form.get('url')).trim(), events: form.getAll('events').map(String) as EventType[] }
    const created = await adding.run(() => client.POST('/api/webhook-endpoints', { body }), t.endpointAdded)
    if (!created) return
    element.reset()
    setSecret({ url: created.url, secret: created.secret })
  }

  return (
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">{t.adminSections.webhooks}</h2>
      <OutcomeLine outcome={outcome} />
      {secret && <SecretOnce {...secret} onDone={() => setSecret(undefined)} />}
      {!endpoints ? (
        !outcome?.error && <p role="status">{t.loading}</p>
      ) : endpoints.length === 0 ? (
        <p>{t.noEndpoints}</p>
      ) : (
        <Table label={t.adminSections.webhooks} columns={[t.url, t.events, t.state]} actions={t.rowActions}>
          {endpoints.map((endpoint) => (
            <tr key={endpoint.id}>
              <td class="wrap">
                <a href={href(['admin', 'webhooks', endpoint.id])}>{endpoint.url}</a>
              </td>
              <td class="wrap">{endpoint.events.join(', ')}</td>
              <td>{endpoint.enabled ? t.enabled : t.disabled(endpoint.consecutiveFailures)}</td>
              <td>
                <button
                  type="button"
                  class="secondary small"
                  aria-label={`${endpoint.enabled ? t.disable : t.enable} ${endpoint.url}`}
                  onClick={() =>
                    void run(
                      () =>
                        client.PUT('/api/webhook-endpoints/{id}', {
                          params: { path: { id: endpoint.id } },
                          body: { enabled: !endpoint.enabled },
                        }),
                      endpoint.enabled ? t.endpointDisabled : t.endpointEnabled,
                    )
                  }
                >
                  {endpoint.enabled ? t.disable : t.enable}
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <form class="panel" aria-label={t.addEndpoint} onSubmit={create}>
        <h3>{t.addEndpoint}</h3>
        <label for="endpoint-url">{t.url}</label>
        <input
          id="endpoint-url"
          name="url"
          type="url"
          maxLength={MAX_LENGTH.NewWebhookEndpoint.url}
          required
          autocomplete="off"
          aria-invalid={adding.errors.url ? true : undefined}
          aria-describedby={describedBy('endpoint-url', false, adding.errors.url)}
        />
        <FieldProblem id="endpoint-url" message={adding.errors.url} />
        <fieldset id="endpoint-events" tabIndex={-1} aria-describedby={describedBy('endpoint-events', false, adding.errors.events)}>
          <legend>{t.events}</legend>
          {VALUES.NewWebhookEndpoint.events.map((type) => (
            <div class="check" key={type}>
              <input id={`event-${type}`} name="events" type="checkbox" value={type} />
              <label for={`event-${type}`}>
                <code>{type}</code>: {t.eventTypes[type]}
              </label>
            </div>
          ))}
          <FieldProblem id="endpoint-events" message={adding.errors.events} />
        </fieldset>
        <button type="submit">{t.addEndpoint}</button>
        <FormOutcome
          outcome={adding.outcome}
          errors={adding.errors}
          fields={{ url: { id: 'endpoint-url', label: t.url }, events: { id: 'endpoint-events', label: t.events } }}
        />
      </form>
    </section>
  )
}

/** The signing secret, which the service answers this once only: shown with a button to copy it. */
function SecretOnce({ url, secret, onDone }: { url: string; secret: string; onDone: () => void }) {
  const field = useRef<HTMLInputElement>(null)
  // The keyboard goes to the secret, selected, ready to copy.
  useLayoutEffect(() => field.current?.focus(), [])
  return (
    <section class="warning" aria-labelledby="secret-title">
      <h3 id="secret-title">{t.signingSecret(url)}</h3>
      <p>{t.secretOnce}</p>
      <label for="endpoint-secret">{t.secret}</label>
      <input ref={field} id="endpoint-secret" value={secret} readOnly onFocus={(event) => event.currentTarget.select()} />
      <CopyButton text={secret} label={t.copy} done={t.copied} byHand={t.copyByHand} />{' '}
      <button type="button" class="secondary" onClick={onDone}>
        {t.secretStored}
      </button>
    </section>
  )
}
