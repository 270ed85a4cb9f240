import { useEffect, useState } from 'preact/hooks'
import './messages.css'
import { MAX_LENGTH } from '../../api-constants'
import { client, problemText, type UnattachedMessage } from '../shared/api'
import { formatDateTime, usePartners } from '../shared/data'
import { language, t } from '../shared/i18n'
import { ActivePartnerOptions } from '../shared/partner-options'
import { useLiveChanges } from '../shared/live'
import { PAGE_SIZE, pageOf, Paging } from '../shared/paging'
import { go } from '../shared/router'
import { authorized } from '../shared/session'

/** Events after which the messages waiting may be others: one arrived, or one was put on a need. */
export const concernsMessages = (event: { type: string; data: Record<string, string> }) =>
  (event.type === 'sms.received' && !event.data.needId) || event.type === 'message.attached'

/** How many messages wait, for the bar's link; read again when one arrives or is picked up. */
export function useWaitingMessages(allowed: boolean): number {
  const [count, setCount] = useState(0)
  const changes = useLiveChanges(concernsMessages)
  useEffect(() => {
    if (!allowed) return
    void authorized(() => client.GET('/api/messages', { params: { query: { unattached: true, limit: 1 } } })).then(({ response }) =>
      setCount(Number(response.headers.get('x-total-count') ?? 0)),
    )
  }, [allowed, changes])
  return count
}

/** Inbound texts on no need, newest first: each put on a need, made a need, or answered. */
export function Messages({ query }: { query: URLSearchParams }) {
  const page = pageOf(query)
  const changes = useLiveChanges(concernsMessages)
  const [reloads, setReloads] = useState(0)
  const [answer, setAnswer] = useState<{ messages: UnattachedMessage[]; total: number } | 'error'>()
  const [said, setSaid] = useState<{ text: string; error?: boolean }>()
  useEffect(() => {
    document.title = `${t.texts.nav} · ${t.appName}`
  }, [])
  useEffect(() => {
    void authorized(() => client.GET('/api/messages', { params: { query: { unattached: true, page, limit: PAGE_SIZE } } })).then(
      ({ data, response }) =>
        setAnswer(data ? { messages: data, total: Number(response.headers.get('x-total-count') ?? data.length) } : 'error'),
    )
  }, [page, changes, reloads])

  const done = (text: string, error?: boolean) => {
    setSaid({ text, ...(error ? { error } : {}) })
    setReloads((n) => n + 1)
  }
  return (
    <>
      <h1>{t.texts.title}</h1>
      <p>{t.texts.intro}</p>
      <div role="status" class={said?.error ? 'error' : 'notice'}>
        {said?.text}
      </div>
      {!answer && <p role="status">{t.loading}</p>}
      {answer === 'error' && (
        <p role="alert" class="error">
          {t.forbidden}
        </p>
      )}
      {answer && answer !== 'error' && (
        <>
          {answer.messages.length === 0 && <p>{t.texts.none}</p>}
          <ol class="messages">
            {answer.messages.map((message) => (
              <li key={message.id}>
                <WaitingMessage message={message} done={done} />
              </li>
            ))}
          </ol>
          <Paging path={['messages']} filters={{}} page={page} total={answer.total} />
        </>
      )}
    </>
  )
}

function WaitingMessage({ message, done }: { message: UnattachedMessage; done: (text: string, error?: boolean) => void }) {
  const partners = usePartners()
  const id = message.id
  const refused = (error: unknown) => done(t.failed(problemText(error)), true)
  const field = (name: string) => `${name}-${id}`
  return (
    <article aria-labelledby={field('from')}>
      <h2 id={field('from')}>
        {t.texts.from} {message.from ?? t.texts.hiddenNumber} · {formatDateTime(message.receivedAt, language)}
      </h2>
      <p class="content">{message.body}</p>
      <form
        class="inline"
        onSubmit={async (event) => {
          event.preventDefault()
          const reference = String(new FormData(event.currentTarget).get('needId')).trim().toUpperCase()
          const { error } = await authorized(() =>
            client.POST('/api/messages/{id}/attach', { params: { path: { id } }, body: { needId: reference } }),
          )
          if (error) return refused(error)
          done(t.texts.attached(reference))
        }}
      >
        <div>
          <label for={field('attach')}>{t.texts.attachTo}</label>
          <input id={field('attach')} name="needId" required autocomplete="off" />
        </div>
        <button type="submit">{t.texts.attach}</button>
      </form>
      <form
        class="inline"
        onSubmit={async (event) => {
          event.preventDefault()
          const form = new FormData(event.currentTarget)
          const description = String(form.get('description')).trim()
          const { data, error } = await authorized(() =>
            client.POST('/api/messages/{id}/need', {
              params: { path: { id } },
              body: { partnerId: String(form.get('partnerId')), ...(description ? { description } : {}) },
            }),
          )
          if (!data) return refused(error)
          go(['needs', data.referenceNumber])
        }}
      >
        <div>
          <label for={field('partner')}>{t.partner}</label>
          <select id={field('partner')} name="partnerId" required>
            <ActivePartnerOptions partners={partners} />
          </select>
        </div>
        <div>
          <label for={field('description')}>{t.texts.description}</label>
          <input id={field('description')} name="description" autocomplete="off" />
        </div>
        <button type="submit">{t.texts.startNeed}</button>
      </form>
      <form
        onSubmit={async (event) => {
          event.preventDefault()
          const form = event.currentTarget
          const body = String(new FormData(form).get('body')).trim()
          const { error } = await authorized(() => client.POST('/api/messages/{id}/reply', { params: { path: { id } }, body: { body } }))
          if (error) return refused(error)
          form.reset()
          done(t.texts.replied)
        }}
      >
        <label for={field('reply')}>{t.texts.replyLabel}</label>
        <textarea id={field('reply')} name="body" maxLength={MAX_LENGTH.NewSms.body} required />
        <button type="submit">{t.texts.reply}</button>
      </form>
    </article>
  )
}
