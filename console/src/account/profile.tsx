import { MAX_LENGTH } from '../../api-constants'
import { useEffect, useState } from 'preact/hooks'
import { client, problemText, type Profile } from '../shared/api'
import { forgetCachedData, useProfile } from '../shared/data'
import { LANGUAGES, language, t, type Language } from '../shared/i18n'
import { requestEmailChange } from './email-change'
import { PasswordFields, passwordsOf } from './password-fields'
import { authorized, changePassword } from '../shared/session'

type Kind = keyof Profile['notifications']
const KINDS = Object.keys(t.profileScreen.kinds) as Kind[]

/** The member's own name, phone, language (the console's too) and mail, a new email (confirmed by it) and a new password. */
export function ProfileScreen() {
  const loaded = useProfile()
  const [profile, setProfile] = useState<Profile>()
  const [message, setMessage] = useState<{ text: string; error: boolean }>()
  const mine = profile ?? loaded
  const s = t.profileScreen
  useEffect(() => {
    document.title = `${s.title} · ${t.appName}`
  }, [])
  if (!mine) return <p role="status">{t.loading}</p>

  const say = (text: string, error = false) => setMessage({ text, error })

  async function save(event: Event) {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    const phone = String(form.get('phone')).trim()
    const fullName = String(form.get('fullName')).trim()
    const body = {
      // A name can be changed, not removed.
      ...(fullName ? { fullName } : {}),
      phone: phone || null,
      language: String(form.get('language')) as Language,
      notifications: Object.fromEntries(KINDS.map((kind) => [kind, form.get(kind) === 'on'])),
    }
    const { data, error } = await authorized(() => client.PUT('/api/profile', { body }))
    if (!data) return say(t.failed(problemText(error)), true)
    // The page's language is chosen by its address: the console reloads in the one chosen, on this screen.
    if (data.language !== language) return location.assign(`/?lang=${data.language}${location.hash}`)
    forgetCachedData()
    setProfile(data)
    say(s.saved)
  }

  async function newEmail(event: Event) {
    event.preventDefault()
    const form = event.currentTarget as HTMLFormElement
    const outcome = await requestEmailChange(String(new FormData(form).get('email')).trim())
    say(outcome.text, outcome.error)
    if (outcome.error) return
    form.reset()
    // The made-up first address is replaced at once: the profile shows the new one.
    if (outcome.changed) await authorized(() => client.GET('/api/profile')).then(({ data }) => data && setProfile(data))
  }

  async function newPassword(event: Event) {
    event.preventDefault()
    const form = event.currentTarget as HTMLFormElement
    const changed = await changePassword(mine!.email, passwordsOf(form))
    if (!changed.ok) return say(t.failed(problemText(changed.problem)), true)
    form.reset()
    say(t.passwordChosen)
  }

  return (
    <section class="narrow-section">
      <h1>{s.title}</h1>
      <p>
        {mine.email} · {t.membersScreen.roles[mine.role]}
      </p>
      <div role="alert">{message?.error && <p class="error">{message.text}</p>}</div>
      <div role="status" class="notice">
        {message && !message.error && message.text}
      </div>
      <form onSubmit={save}>
        <label for="profile-name">{s.fullName}</label>
        <input
          id="profile-name"
          name="fullName"
          autocomplete="name"
          maxLength={MAX_LENGTH.ProfileUpdate.fullName}
          defaultValue={mine.fullName ?? ''}
        />
        <label for="profile-phone">{t.phone}</label>
        <input
          id="profile-phone"
          name="phone"
          type="tel"
          autocomplete="tel"
          defaultValue={mine.phone ?? ''}
          aria-describedby="profile-phone-hint"
        />
        <p id="profile-phone-hint" class="meta">
          {s.phoneHint}
        </p>
        <label for="profile-language">{s.language}</label>
        <select id="profile-language" name="language">
          {(Object.keys(LANGUAGES) as Language[]).map((code) => (
            <option key={code} value={code} lang={code} selected={code === mine.language}>
              {LANGUAGES[code].languageName}
            </option>
          ))}
        </select>
        <fieldset>
          <legend>{s.notifications}</legend>
          {KINDS.map((kind) => (
            <div class="check" key={kind}>
              <input id={`notify-${kind}`} name={kind} type="checkbox" defaultChecked={mine.notifications[kind]} />
              <label for={`notify-${kind}`}>{s.kinds[kind]}</label>
            </div>
          ))}
        </fieldset>
        <button type="submit">{s.save}</button>
      </form>
      <form onSubmit={newEmail}>
        <h2>{s.emailTitle}</h2>
        <label for="profile-email">{s.newEmail}</label>
        <input
          id="profile-email"
          name="email"
          type="email"
          autocomplete="email"
          required
          maxLength={MAX_LENGTH.EmailChangeRequest.email}
          aria-describedby="profile-email-hint"
        />
        <p id="profile-email-hint" class="meta">
          {t.yourEmailHint}
        </p>
        <button type="submit">{s.changeEmail}</button>
      </form>
      <form onSubmit={newPassword}>
        <h2>{s.passwordTitle}</h2>
        <PasswordFields email={mine.email} />
        <button type="submit">{s.changePassword}</button>
      </form>
    </section>
  )
}
