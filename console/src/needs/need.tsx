import { Fragment } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { LIST_LIMIT } from '../../api-constants'
import {
  client,
  problemText,
  type Interaction,
  type Member,
  type NeedDetail,
  type NeedChange,
  type Partner,
  type Profile,
  type Status,
} from '../shared/api'
import { everyPage, formatDate, formatDateTime, memberName, partnerName, useMembers, usePartners, useProfile } from '../shared/data'
import { language, t } from '../shared/i18n'
import { useLiveChanges } from '../shared/live'
import { NeedActions } from './need-actions'
import { SmsForm, Thread } from './need-thread'
import { CreatedDuplicates, takeCreated } from './created-need'
import { NeedPerson } from './need-person'
import { authorized } from '../shared/session'

interface Loaded {
  need: NeedDetail
  interactions: Interaction[]
  history: NeedChange[]
}

/** One need, opened by its reference number: its fields, what the member may change, notes, texts and history. */
export function NeedScreen({ reference }: { reference: string }) {
  const partners = usePartners()
  const profile = useProfile()
  const members = useMembers(profile)
  const [loaded, setLoaded] = useState<Loaded | 'missing'>()
  // Just created here: said once, the keyboard at the heading (docs/console.md "New need").
  const [created] = useState(() => takeCreated(reference))
  const [message, setMessage] = useState<{ text: string; error?: boolean } | undefined>(created && { text: t.created_(reference) })
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    document.title = `${t.needTitle(reference)} · ${t.appName}`
  }, [reference])

  async function load() {
    const { data: need } = await authorized(() => client.GET('/api/needs/{id}', { params: { path: { id: reference } } }))
    if (!need) return setLoaded('missing')
    const path = { id: need.id }
    // Every note and change, however many: a need worked for months can hold more than a page of them.
    const [interactions, history] = await Promise.all([
      authorized(() =>
        everyPage((page) => client.GET('/api/needs/{id}/interactions', { params: { path, query: { page, limit: LIST_LIMIT } } })),
      ),
      authorized(() =>
        everyPage((page) => client.GET('/api/needs/{id}/history', { params: { path, query: { page, limit: LIST_LIMIT } } })),
      ),
    ])
    setLoaded({ need, interactions: interactions.data ?? [], history: history.data ?? [] })
  }
  // What happens to this need elsewhere (a change, a note, a text) shows without a reload.
  const changes = useLiveChanges((event) => typeof loaded === 'object' && event.data.needId === loaded.need.id)
  useEffect(() => void load(), [reference, changes])
  const shown = Boolean(loaded)
  useEffect(() => {
    if (shown && created) heading.current?.focus()
  }, [shown])

  /** Runs a change, reads the need again and then says what came of it. */
  async function act(call: () => Promise<{ error?: unknown; response: Response }>, done: string) {
    const { error, response } = await authorized(call)
    if (!error) await load()
    setMessage(error ? { text: refusal(response.status, error), error: true } : { text: done })
    return !error
  }

  if (!loaded) return <p role="status">{t.loading}</p>
  if (loaded === 'missing')
    return (
      <>
        <h1>{t.needTitle(reference)}</h1>
        <p role="alert" class="error">
          {t.notFound}
        </p>
      </>
    )
  const { need, interactions, history } = loaded
  const id = need.id
  const lookups = { partners, members, profile }

  return (
    <>
      <h1 ref={heading} tabIndex={-1}>
        {t.needTitle(need.referenceNumber)}
      </h1>
      <div role="status" class={message?.error ? 'error' : 'notice'}>
        {message?.text}
      </div>
      {created && <CreatedDuplicates created={created} />}
      {need.needsAttention && <p class="warning">{t.texts.attention}</p>}
      <section aria-labelledby="fields-title">
        <h2 id="fields-title">{t.fields}</h2>
        <dl class="fields">
          <dt>{t.status}</dt>
          <dd>{t.statuses[need.status]}</dd>
          <dt>{t.partner}</dt>
          <dd>{partnerName(partners, need.partnerId)}</dd>
          <dt>{t.assignee}</dt>
          <dd>{memberName(members, profile, need.assignedTo, t)}</dd>
          <dt>{t.due}</dt>
          <dd>{formatDate(need.dueDate, language)}</dd>
          <dt>{t.created}</dt>
          <dd>{formatDateTime(need.createdAt, language)}</dd>
          <dt>{t.confidential}</dt>
          <dd>{need.isConfidential ? t.yes : t.no}</dd>
          {Object.entries(need.customFields).map(([key, value]) => (
            <Fragment key={key}>
              <dt>{customFieldLabel(key)}</dt>
              <dd>{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
            </Fragment>
          ))}
        </dl>
      </section>
      <NeedPerson need={need} profile={profile} />
      <NeedActions need={need} profile={profile} members={members} partners={partners} act={act} />
      <section aria-labelledby="notes-title">
        <h2 id="notes-title">{t.notes}</h2>
        <Thread interactions={interactions} />
        <form
          onSubmit={async (event) => {
            event.preventDefault()
            const form = event.currentTarget
            const content = String(new FormData(form).get('note')).trim()
            if (
              content &&
              (await act(() => client.POST('/api/needs/{id}/notes', { params: { path: { id } }, body: { content } }), t.noteAdded))
            )
              form.reset()
          }}
        >
          <label for="note">{t.note}</label>
          <textarea id="note" name="note" required />
          <button type="submit">{t.addNote}</button>
        </form>
        <SmsForm need={need} profile={profile} act={act} />
      </section>
      <section aria-labelledby="history-title">
        <h2 id="history-title">{t.history}</h2>
        {history.length === 0 ? (
          <p>{t.noHistory}</p>
        ) : (
          <ol class="timeline">
            {history.map((change) => (
              <li key={change.id}>
                <p class="meta">{formatDateTime(change.changedAt, language)}</p>
                <p>
                  {t.changeLine(
                    t.fieldNames[change.field] ?? change.field,
                    valueText(change.field, change.from, lookups),
                    valueText(change.field, change.to, lookups),
                  )}
                </p>
              </li>
            ))}
          </ol>
        )}
      </section>
    </>
  )
}

/** What a refused change says: a role's limit, a rate limit (with the server's reason), or the problem. */
function refusal(status: number, error: unknown): string {
  if (status === 403) return t.forbidden
  if (status === 429) return t.tooMany(problemText(error))
  return t.failed(problemText(error))
}

/** The intake's own keys by their names in the member's language; any other key as it was written. */
function customFieldLabel(key: string): string {
  return t.customFields[key] ?? (t.personFields as Record<string, string>)[key] ?? key
}

function valueText(
  field: NeedChange['field'],
  value: string | undefined,
  known: { partners: Partner[]; members: Member[]; profile: Profile | undefined },
): string {
  if (value === undefined) return '—'
  if (field === 'status') return t.statuses[value as Status] ?? value
  if (field === 'partnerId') return partnerName(known.partners, value) || value
  if (field === 'assignedTo') return memberName(known.members, known.profile, value, t)
  if (field === 'isConfidential') return value === 'true' ? t.yes : t.no
  return value
}
