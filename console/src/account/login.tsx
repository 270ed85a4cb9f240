import { useEffect, useState } from 'preact/hooks'
import { client } from '../shared/api'
import { LanguageSwitch } from '../shared/language-switch'
import { t } from '../shared/i18n'
import { href, type Place } from '../shared/router'
import { logIn } from '../shared/session'

/** The login, shown wherever the member was: after it, the same place opens. */
export function Login({ lapsed, place }: { lapsed: boolean; place: Place }) {
  return place.path[0] === 'forgot-password' ? <ForgotPassword /> : <LoginForm lapsed={lapsed} />
}

function LoginForm({ lapsed }: { lapsed: boolean }) {
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    document.title = `${t.logIn} · ${t.appName}`
  }, [])

  async function submit(event: Event) {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    setBusy(true)
    const result = await logIn(String(form.get('email')), String(form.get('password')))
    setBusy(false)
    if (!result.ok) setError(result.status === 401 ? t.badLogin : t.failed(result.detail))
  }

  return (
    <main class="narrow">
      <LanguageSwitch />
      <h1>{t.appName}</h1>
      {lapsed && !error && (
        <p role="status" class="notice">
          {t.sessionLapsed}
        </p>
      )}
      <div role="alert">{error && <p class="error">{error}</p>}</div>
      <form onSubmit={submit}>
        <label for="email">{t.email}</label>
        <input id="email" name="email" type="email" autocomplete="username" required />
        <label for="password">{t.password}</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit" disabled={busy}>
          {busy ? t.loggingIn : t.logIn}
        </button>
      </form>
      <p>
        <a href={href(['forgot-password'])}>{t.forgotPassword}</a>
      </p>
    </main>
  )
}

/** Asks for the email with a link to the page where a new password is chosen. */
function ForgotPassword() {
  const [sent, setSent] = useState(false)
  const [error, setError] = useState('')
  useEffect(() => {
    document.title = `${t.resetTitle} · ${t.appName}`
  }, [])

  async function submit(event: Event) {
    event.preventDefault()
    const email = String(new FormData(event.currentTarget as HTMLFormElement).get('email'))
    const { error: problem } = await client.POST('/api/auth/password-reset', { body: { email } })
    if (problem) setError(t.failed(problem.detail))
    else setSent(true)
  }

  return (
    <main class="narrow">
      <h1>{t.resetTitle}</h1>
      {sent ? (
        <p role="status">{t.resetSent}</p>
      ) : (
        <>
          <p>{t.resetIntro}</p>
          <div role="alert">{error && <p class="error">{error}</p>}</div>
          <form onSubmit={submit}>
            <label for="reset-email">{t.email}</label>
            <input id="reset-email" name="email" type="email" autocomplete="username" required />
            <button type="submit">{t.sendLink}</button>
          </form>
        </>
      )}
      <p>
        <a href={href([])}>{t.backToLogin}</a>
      </p>
    </main>
  )
}
