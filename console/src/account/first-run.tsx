import { MAX_LENGTH } from '../../api-constants'
import { useEffect, useState } from 'preact/hooks'
import { client, problemText, type OrganizationSettings, type Profile } from '../shared/api'
import { may, readPartners } from '../shared/data'
import { language, LANGUAGES, t } from '../shared/i18n'
import { IntakeLinkField } from '../shared/intake-link'
import { requestEmailChange } from './email-change'
import { PasswordFields, passwordsOf } from './password-fields'
import { authorized, changePassword } from '../shared/session'

/**
 * docs/console.md "First run": the organization still bears the name the first start gives it (the service's
 * INTAKE_ORG_NAME default), so its admin has not been through the first run yet. Renaming it ends the first run.
 */
export const FIRST_START_NAME = 'My Organization'
/** The admin's address when the operator named none at the first start: it reaches nobody, so the first run asks for the real one. */
const FIRST_START_EMAIL = 'admin@example.org'

/** The organization's settings while its first run is due (for who may change them); undefined otherwise, 'checking' until known. */
export function useFirstRun({
  profile,
  answered,
}: {
  profile?: Profile
  answered: boolean
}): OrganizationSettings | 'checking' | undefined {
  const [settings, setSettings] = useState<OrganizationSettings | 'checking' | undefined>('checking')
  const admin = may(profile, 'organization:settings')
  useEffect(() => {
    if (!answered) return
    if (!admin) return setSettings(undefined)
    void authorized(() => client.GET('/api/organizations/settings')).then(({ data }) =>
      setSettings(data?.name === FIRST_START_NAME ? data : undefined),
    )
  }, [answered, admin])
  return settings
}

/** The region of the browser's language (en-GB: GB), a likely first guess of where the organization is. */
function browserCountry(): string | undefined {
  return /^[a-z]{2,3}-([A-Z]{2})\b/.exec(navigator.language)?.[1]
}

/** Links in mail lead to PUBLIC_BASE_URL: on this computer's own names, they work on this computer only. */
function pointsAtThisComputer(url: string): boolean {
  const host = new URL(url).hostname
  return host === 'localhost' || host.endsWith('.localhost') || host.startsWith('127.') || host === '[::1]'
}

/**
 * The first start names the default partner in English (docs/api/needs.md "Partners"): a first run gone through in
 * another language names it in that one, unless an admin has renamed it already. Not worth stopping the first run for.
 */
async function nameDefaultPartnerInLanguage() {
  const { data } = await authorized(readPartners)
  const general = data?.find((partner) => partner.isDefault && partner.name === LANGUAGES.en.defaultPartnerName)
  if (general)
    await authorized(() => client.PUT('/api/partners/{id}', { params: { path: { id: general.id } }, body: { name: t.defaultPartnerName } }))
}

/**
 * The first admin chooses its own password instead of the printed one, then gives its own name and email and the
 * organization's name, country and time zone. A confirmation sent to the email is said before the inbox shows.
 */
export function FirstRun({ settings, profile, onDone }: { settings: OrganizationSettings; profile: Profile; onDone: () => void }) {
  const [step, setStep] = useState<'password' | 'name' | 'confirming'>('password')
  const [error, setError] = useState('')
  const [notice, setNotice] = useState('')
  useEffect(() => {
    document.title = `${t.firstRunTitle} · ${t.appName}`
  }, [])

  async function choosePassword(event: Event) {
    event.preventDefault()
    const changed = await changePassword(profile.email, passwordsOf(event.currentTarget as HTMLFormElement), settings.slug)
    if (!changed.ok) return setError(t.failed(problemText(changed.problem)))
    setError('')
    setNotice(t.passwordChosen)
    setStep('name')
  }

  async function chooseName(event: Event) {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    const text = (field: string) => String(form.get(field)).trim()
    const fullName = text('fullName')
    if (fullName && fullName !== profile.fullName) {
      const { error: problem } = await authorized(() => client.PUT('/api/profile', { body: { fullName } }))
      if (problem) return setError(t.failed(problemText(problem)))
    }
    // Before the organization is renamed, which ends the first run: a refused address is corrected here.
    const email = text('email').toLowerCase()
    const change = email === profile.email ? undefined : await requestEmailChange(email)
    if (change?.error) return setError(change.text)
    const body = { name: text('name'), defaultCountry: text('defaultCountry').toUpperCase(), timeZone: text('timeZone') }
    const { error: problem } = await authorized(() => client.PUT('/api/organizations/settings', { body }))
    if (problem) return setError(t.failed(problemText(problem)))
    if (language !== 'en') await nameDefaultPartnerInLanguage()
    if (!change || change.changed) return onDone()
    setError('')
    setNotice(change.text)
    setStep('confirming')
  }

  return (
    <section class="narrow-section">
      <h1>{t.firstRunTitle}</h1>
      <p>
        {t.serviceAddress}: <strong>{settings.publicBaseUrl}</strong>
      </p>
      {pointsAtThisComputer(settings.publicBaseUrl) && <p class="warning">{t.localhostWarning(settings.publicBaseUrl)}</p>}
      <p>{t.intakeLinkIntro}</p>
      <IntakeLinkField organization={settings} />
      <div role="alert">{error && <p class="error">{error}</p>}</div>
      <div role="status" class="notice">
        {notice}
      </div>
      {step === 'confirming' ? (
        <button type="button" onClick={onDone}>
          {t.continueToInbox}
        </button>
      ) : step === 'password' ? (
        <form onSubmit={choosePassword}>
          <h2>{t.choosePassword}</h2>
          <p>{t.choosePasswordIntro}</p>
          <PasswordFields email={profile.email} />
          <button type="submit">{t.savePassword}</button>{' '}
          <button type="button" class="secondary" onClick={() => setStep('name')}>
            {t.passwordAlreadyChosen}
          </button>
        </form>
      ) : (
        <form onSubmit={chooseName}>
          <h2>{t.aboutYou}</h2>
          <label for="admin-name">{t.yourName}</label>
          <input
            id="admin-name"
            name="fullName"
            autocomplete="name"
            maxLength={MAX_LENGTH.ProfileUpdate.fullName}
            defaultValue={profile.fullName ?? ''}
            required
          />
          <label for="admin-email">{t.yourEmail}</label>
          <input
            id="admin-email"
            name="email"
            type="email"
            autocomplete="email"
            maxLength={MAX_LENGTH.EmailChangeRequest.email}
            defaultValue={profile.email === FIRST_START_EMAIL ? '' : profile.email}
            aria-describedby="admin-email-hint"
            required
          />
          <p id="admin-email-hint" class="meta">
            {t.yourEmailHint}
          </p>
          <h2>{t.nameOrganization}</h2>
          <label for="organization-name">{t.organizationName}</label>
          <input
            id="organization-name"
            name="name"
            autocomplete="organization"
            maxLength={MAX_LENGTH.OrganizationSettingsUpdate.name}
            required
          />
          <label for="organization-country">{t.defaultCountry}</label>
          <input
            id="organization-country"
            name="defaultCountry"
            autocomplete="country"
            defaultValue={browserCountry() ?? settings.defaultCountry}
            maxLength={MAX_LENGTH.OrganizationSettingsUpdate.defaultCountry}
            aria-describedby="organization-country-hint"
            required
          />
          <p id="organization-country-hint" class="meta">
            {t.defaultCountryHint}
          </p>
          <label for="organization-time-zone">{t.timeZone}</label>
          <input
            id="organization-time-zone"
            name="timeZone"
            autocomplete="off"
            defaultValue={Intl.DateTimeFormat().resolvedOptions().timeZone}
            maxLength={MAX_LENGTH.OrganizationSettingsUpdate.timeZone}
            aria-describedby="organization-time-zone-hint"
            required
          />
          <p id="organization-time-zone-hint" class="meta">
            {t.timeZoneHint}
          </p>
          <button type="submit">{t.saveName}</button>
        </form>
      )}
    </section>
  )
}
