import { MAX_LENGTH } from '../../api-constants'
import { useLayoutEffect, useRef, useState } from 'preact/hooks'
import { client, type Member, type Partner, type Profile } from '../shared/api'
import { failure, type Outcome } from '../shared/outcome'
import { t } from '../shared/i18n'
import { MemberFields, memberFieldsOf } from './member-fields'
import { authorized } from '../shared/session'

export const memberLabel = (member: Pick<Member, 'fullName' | 'email'>) => member.fullName ?? member.email

/** The name and email fields of a change: only what differs is sent, and a name can be changed, not removed. */
function identityOf(form: FormData, member: Member) {
  const fullName = String(form.get('fullName')).trim()
  const email = String(form.get('email')).trim()
  return {
    ...(fullName && fullName !== member.fullName ? { fullName } : {}),
    ...(email && email.toLowerCase() !== member.email ? { email } : {}),
  }
}

/**
 * One member's changes: name, email (confirmed by the new address), role, partner and profiles; the invitation sent again while not accepted; deactivation
 * and reactivation, each confirmed by name first. `onDone` hears what happened (and the list reloads).
 */
export function MemberPanel({
  actor,
  member,
  partners,
  onDone,
  onCancel,
}: {
  actor: Profile
  member: Member
  partners: Partner[]
  onDone: (outcome: Outcome) => void
  onCancel: () => void
}) {
  const [confirming, setConfirming] = useState(false)
  const heading = useRef<HTMLHeadingElement>(null)
  // The keyboard goes on from the panel's question, as soon as it shows.
  useLayoutEffect(() => heading.current?.focus(), [member.id, confirming])
  const s = t.membersScreen
  const name = memberLabel(member)
  const path = { params: { path: { id: member.id } } }

  async function save(event: Event) {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    const body = { ...identityOf(form, member), ...memberFieldsOf(form, actor) }
    const { data, error, response } = await authorized(() => client.PUT('/api/members/{id}', { ...path, body }))
    if (!data) return onDone(failure(response.status, error))
    const changed = memberLabel(data)
    onDone({ text: data.pendingEmail ? s.savedPendingEmail(changed, data.pendingEmail) : s.saved(changed), error: false })
  }

  async function resend() {
    const { data, error, response } = await authorized(() => client.POST('/api/members/{id}/invitation', { ...path, body: {} }))
    onDone(data ? { text: s.resent(member.email), error: false } : failure(response.status, error))
  }

  async function switchActive() {
    const { error, response } = member.active
      ? await authorized(() => client.DELETE('/api/members/{id}', path))
      : await authorized(() => client.PUT('/api/members/{id}', { ...path, body: { active: true } }))
    if (!response.ok) return onDone(failure(response.status, error))
    onDone({ text: member.active ? s.deactivatedNotice(name) : s.reactivatedNotice(name), error: false })
  }

  if (confirming)
    return (
      <section key="confirm" aria-labelledby="member-confirm-title" class="confirm narrow-section">
        <h3 id="member-confirm-title" ref={heading} tabIndex={-1}>
          {member.active ? s.deactivateTitle(name) : s.reactivateTitle(name)}
        </h3>
        <p>{member.active ? s.deactivateExplain : s.reactivateExplain}</p>
        <button type="button" onClick={() => void switchActive()}>
          {member.active ? s.deactivate : s.reactivate}
        </button>{' '}
        <button type="button" class="secondary" onClick={() => setConfirming(false)}>
          {t.cancel}
        </button>
      </section>
    )

  return (
    <section key="change" aria-labelledby="member-change-title" class="confirm narrow-section">
      <h3 id="member-change-title" ref={heading} tabIndex={-1}>
        {s.change(name)}
      </h3>
      <form onSubmit={save}>
        <label for="change-fullName">{s.fullName}</label>
        <input
          id="change-fullName"
          name="fullName"
          autocomplete="off"
          maxLength={MAX_LENGTH.MemberUpdate.fullName}
          defaultValue={member.fullName ?? ''}
        />
        <label for="change-email">{t.email}</label>
        <input
          id="change-email"
          name="email"
          type="email"
          autocomplete="off"
          required
          maxLength={MAX_LENGTH.MemberUpdate.email}
          defaultValue={member.email}
        />
        <MemberFields actor={actor} partners={partners} member={member} idPrefix="change" />
        <button type="submit">{s.save}</button>{' '}
        <button type="button" class="secondary" onClick={onCancel}>
          {t.cancel}
        </button>
      </form>
      {member.active && !member.isConfirmed && (
        <button type="button" class="secondary" onClick={() => void resend()}>
          {s.resend}
        </button>
      )}{' '}
      {member.id !== actor.id && (
        <button type="button" class="secondary" onClick={() => setConfirming(true)}>
          {member.active ? s.deactivateEllipsis : s.reactivateEllipsis}
        </button>
      )}
    </section>
  )
}
