import { t } from '../shared/i18n'

/** The current and the new password (with the account's email for password managers), as a password change asks them. */
export function PasswordFields({ email }: { email: string }) {
  return (
    <>
      <input type="email" name="username" autocomplete="username" aria-label={t.email} value={email} hidden readOnly />
      <label for="current-password">{t.currentPassword}</label>
      <input id="current-password" name="currentPassword" type="password" autocomplete="current-password" required />
      <label for="new-password">{t.newPassword}</label>
      <input
        id="new-password"
        name="newPassword"
        type="password"
        autocomplete="new-password"
        minLength={12}
        required
        aria-describedby="new-password-rule"
      />
      <p id="new-password-rule" class="meta">
        {t.passwordRule}
      </p>
    </>
  )
}

/** The two passwords of a submitted form holding PasswordFields. */
export function passwordsOf(form: HTMLFormElement) {
  const data = new FormData(form)
  return { currentPassword: String(data.get('currentPassword')), newPassword: String(data.get('newPassword')) }
}
