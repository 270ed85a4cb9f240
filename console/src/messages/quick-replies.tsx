import { useEffect, useState } from 'preact/hooks'
import { client, type QuickReply } from '../shared/api'
import { may } from '../shared/data'
import { t } from '../shared/i18n'
import type { Profile } from '../shared/api'
import { authorized } from '../shared/session'

let replies: Promise<QuickReply[]> | undefined

/** The organization's saved replies, read once per page load. */
export function useQuickReplies(allowed: boolean): QuickReply[] {
  const [list, setList] = useState<QuickReply[]>([])
  useEffect(() => {
    if (!allowed) return
    replies ??= authorized(() => client.GET('/api/organizations/quick-replies')).then(({ data }) => data?.replies ?? [])
    void replies.then(setList)
  }, [allowed])
  return list
}

/** The replies' placeholders filled with the need's own words. */
function filled(text: string, fill: { reference: string; partner: string }): string {
  return text.replaceAll('{reference}', fill.reference).replaceAll('{partner}', fill.partner)
}

/**
 * A saved reply chosen in either of its languages (the person's, which the member picks) fills the reply box, where
 * it can still be changed before it is sent.
 */
export function QuickReplies({
  profile,
  fill,
  onChoose,
}: {
  profile: Profile | undefined
  fill: { reference: string; partner: string }
  onChoose: (text: string) => void
}) {
  const list = useQuickReplies(may(profile, 'needs:send-sms'))
  if (list.length === 0) return null
  const options = list.flatMap((reply) =>
    (['en', 'es'] as const).flatMap((language) => {
      const body = reply.body[language]
      return body === undefined ? [] : [{ key: `${reply.label}|${language}`, text: `${reply.label} (${language.toUpperCase()})`, body }]
    }),
  )
  return (
    <div>
      <label for="quick-reply">{t.texts.quickReply}</label>
      <select
        id="quick-reply"
        onChange={(event) => {
          const chosen = options.find((option) => option.key === event.currentTarget.value)
          if (chosen) onChoose(filled(chosen.body, fill))
        }}
      >
        <option value="">{t.texts.quickReplyNone}</option>
        {options.map((option) => (
          <option key={option.key} value={option.key}>
            {option.text}
          </option>
        ))}
      </select>
    </div>
  )
}
