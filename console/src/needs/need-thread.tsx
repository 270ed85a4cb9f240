import { useState } from 'preact/hooks'
import { MAX_LENGTH } from '../../api-constants'
import { client, type Interaction, type NeedDetail, type Profile } from '../shared/api'
import { formatDate, formatDateTime, may, partnerName, usePartners } from '../shared/data'
import { language, t } from '../shared/i18n'
import { QuickReplies } from '../messages/quick-replies'
import type { Act } from './need-actions'

/**
 * A need's notes and texts as one conversation, oldest first: for a text, who sent it (a member by name, the
 * person, or the service's own message) and how far its delivery went, with the provider's reason when it failed.
 */
export function Thread({ interactions }: { interactions: Interaction[] }) {
  if (interactions.length === 0) return <p>{t.noInteractions}</p>
  return (
    <ol class="timeline thread">
      {interactions.map((item) => (
        <li key={item.id} class={item.channel === 'sms' ? `text ${item.senderIdentifier ? 'inbound' : 'outbound'}` : undefined}>
          <p class="meta">
            {formatDateTime(item.createdAt, language)} · {t.channels[item.channel]} · {senderOf(item)}
            {item.deliveryStatus && ` · ${t.texts.delivery[item.deliveryStatus]}`}
          </p>
          <p class="content">{item.content}</p>
          {item.deliveryError && <p class="error">{t.texts.deliveryError(item.deliveryError)}</p>}
        </li>
      ))}
    </ol>
  )
}

function senderOf(item: Interaction): string {
  if (item.sentBy) return t.texts.sentBy(item.sentBy.fullName)
  if (item.channel !== 'sms') return ''
  return item.senderIdentifier ? `${t.texts.fromPerson} (${item.senderIdentifier})` : t.texts.fromService
}

/**
 * The reply box under the thread, for those who may text: offered only when the need says a text can reach the
 * person, and otherwise why not (no phone, STOP, no SMS number, no provider, a limit), so nothing sits queued in vain.
 */
export function SmsForm({ need, profile, act }: { need: NeedDetail; profile: Profile | undefined; act: Act }) {
  const partners = usePartners()
  const [body, setBody] = useState('')
  if (!may(profile, 'needs:send-sms') || !need.constituentId) return null
  const id = need.id
  return (
    <div class="reply no-print">
      {need.textsStoppedAt && <p class="notice">{t.texts.stoppedOn(formatDate(need.textsStoppedAt, language))}</p>}
      {!need.canText ? (
        <p class="notice">{t.texts.cannotText[need.cannotTextReason ?? ''] ?? t.texts.cannotText['no-phone']}</p>
      ) : (
        <form
          onSubmit={async (event) => {
            event.preventDefault()
            const text = body.trim()
            if (
              text &&
              (await act(() => client.POST('/api/needs/{id}/sms', { params: { path: { id } }, body: { body: text } }), t.smsQueued))
            )
              setBody('')
          }}
        >
          <QuickReplies
            profile={profile}
            fill={{ reference: need.referenceNumber, partner: partnerName(partners, need.partnerId) }}
            onChoose={setBody}
          />
          <label for="sms">{t.smsLabel}</label>
          <textarea
            id="sms"
            name="sms"
            maxLength={MAX_LENGTH.NewSms.body}
            required
            value={body}
            onInput={(event) => setBody(event.currentTarget.value)}
          />
          <button type="submit">{t.sendSms}</button>
        </form>
      )}
    </div>
  )
}
