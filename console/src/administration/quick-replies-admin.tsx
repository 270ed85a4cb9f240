import { useEffect, useState } from 'preact/hooks'
import { MAX_LENGTH } from '../../api-constants'
import { client, problemText, type QuickReply } from '../shared/api'
import { t } from '../shared/i18n'
import { authorized } from '../shared/session'

interface Row {
  label: string
  en: string
  es: string
}

const rowOf = (reply: QuickReply): Row => ({ label: reply.label, en: reply.body.en ?? '', es: reply.body.es ?? '' })
const replyOf = (row: Row): QuickReply => ({
  label: row.label,
  body: { ...(row.en.trim() ? { en: row.en } : {}), ...(row.es.trim() ? { es: row.es } : {}) },
})

/** The organization's saved replies, edited as a list and saved whole; what came of saving is said beside the button. */
export function QuickRepliesScreen() {
  const [rows, setRows] = useState<Row[]>()
  const [said, setSaid] = useState<{ text: string; error?: boolean }>()
  useEffect(() => {
    void authorized(() => client.GET('/api/organizations/quick-replies')).then(({ data }) => setRows((data?.replies ?? []).map(rowOf)))
  }, [])
  if (!rows) return <p role="status">{t.loading}</p>
  const change = (index: number, patch: Partial<Row>) => setRows(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)))
  const words = t.quickReplies
  return (
    <form
      aria-labelledby="quick-replies-title"
      onSubmit={async (event) => {
        event.preventDefault()
        const { error } = await authorized(() => client.PUT('/api/organizations/quick-replies', { body: { replies: rows.map(replyOf) } }))
        setSaid(error ? { text: t.failed(problemText(error)), error: true } : { text: words.saved })
      }}
    >
      <h2 id="quick-replies-title">{words.title}</h2>
      <p>{words.intro}</p>
      {rows.map((row, i) => (
        <fieldset key={i}>
          <legend>{words.reply(i + 1)}</legend>
          <label for={`reply-label-${i}`}>{words.label}</label>
          <input id={`reply-label-${i}`} value={row.label} required onInput={(event) => change(i, { label: event.currentTarget.value })} />
          {(['en', 'es'] as const).map((language) => (
            <div key={language}>
              <label for={`reply-${language}-${i}`}>{words.body[language]}</label>
              <textarea
                id={`reply-${language}-${i}`}
                value={row[language]}
                maxLength={MAX_LENGTH.NewSms.body}
                onInput={(event) => change(i, { [language]: event.currentTarget.value })}
              />
            </div>
          ))}
          <button type="button" class="secondary" onClick={() => setRows(rows.filter((_, j) => j !== i))}>
            {words.remove(i + 1)}
          </button>
        </fieldset>
      ))}
      <button type="button" class="secondary" onClick={() => setRows([...rows, { label: '', en: '', es: '' }])}>
        {words.add}
      </button>{' '}
      <button type="submit">{words.save}</button>
      <p role="status" class={said?.error ? 'error' : 'notice'}>
        {said?.text}
      </p>
    </form>
  )
}
