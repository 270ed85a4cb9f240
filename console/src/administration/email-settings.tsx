import { MAX_LENGTH, SHAPES, VALUES } from '../../api-constants'
import { useEffect, useRef, useState } from 'preact/hooks'
import { client, type EmailSettings } from '../shared/api'
import { describedBy, FieldProblem, FormOutcome } from '../shared/field-errors'
import { failure, OutcomeLine, useOutcome } from '../shared/outcome'
import { formatDateTime } from '../shared/data'
import { language, t } from '../shared/i18n'
import { authorized } from '../shared/session'

type Provider = EmailSettings['provider']

/** What each provider's key looks like, the shapes from the service's own record: "SMTP: smtp://…; Postmark, SendGrid: the API key." */
function apiKeyHint(): string {
  const shapes: Partial<Record<Provider, string>> = SHAPES.EmailSettingsUpdate.apiKey
  const providers = VALUES.EmailSettingsUpdate.provider
  const shaped = providers.flatMap((p) => (shapes[p] ? [`${t.providers[p]}: ${shapes[p]}`] : []))
  const others = providers.filter((p) => !shapes[p]).map((p) => t.providers[p])
  return `${[...shaped, ...(others.length > 0 ? [`${others.join(', ')}: ${t.theApiKey}`] : [])].join('; ')}.`
}

/**
 * The email provider. Its key is a secret the service never answers: the screen says only whether one is set
 * (and its last four characters); left empty, saving or testing uses the one kept. The test sends one real
 * message with what the form holds, and stores nothing.
 */
export function EmailSettingsSection() {
  const [stored, setStored] = useState<EmailSettings | 'none'>()
  const form = useRef<HTMLFormElement>(null)
  async function load() {
    const { data, error, response } = await authorized(() => client.GET('/api/organizations/settings/email'))
    // 404: none are set, and mail goes to the fallback.
    if (data || response.status === 404) setStored(data ?? 'none')
    else setOutcome(failure(response.status, error))
  }
  const { outcome, setOutcome, errors, run } = useOutcome(load)
  // The test's outcome is its own, beside its button; its refused fields are the settings form's too.
  const test = useOutcome()
  useEffect(() => void load(), [])
  if (!stored) return outcome?.error ? <OutcomeLine outcome={outcome} /> : <p role="status">{t.loading}</p>
  const current = stored === 'none' ? undefined : stored

  /** The form's fields, once the browser found them complete. */
  function proposed() {
    if (!form.current?.reportValidity()) return undefined
    const fields = new FormData(form.current)
    const fromName = String(fields.get('fromName')).trim()
    const apiKey = String(fields.get('apiKey'))
    return {
      provider: String(fields.get('provider')) as Provider,
      // Left empty, the service uses the key it keeps (for the same provider only).
      ...(apiKey ? { apiKey } : {}),
      fromEmail: String(fields.get('fromEmail')).trim(),
      ...(fromName ? { fromName } : {}),
    }
  }

  async function sendTest(event: Event) {
    event.preventDefault()
    const body = proposed()
    const toEmail = String(new FormData(event.currentTarget as HTMLFormElement).get('toEmail')).trim()
    if (!body) return
    test.setOutcome({ text: t.sending })
    await test.run(() => client.POST('/api/organizations/settings/email/test', { body: { ...body, toEmail } }), t.testSent(toEmail))
  }
  // Each field's id and label, for its error beside it and in the list beside the button.
  const fields = {
    provider: { id: 'email-provider', label: t.provider },
    apiKey: { id: 'email-key', label: t.apiKey },
    fromEmail: { id: 'email-from', label: t.fromEmail },
    fromName: { id: 'email-from-name', label: t.fromName },
  }
  const refused = { ...errors, ...test.errors }
  const field = (name: keyof typeof fields, hint = false) => ({
    id: fields[name].id,
    name,
    'aria-invalid': refused[name] ? true : undefined,
    'aria-describedby': describedBy(fields[name].id, hint, refused[name]),
  })

  return (
    <section aria-labelledby="email-title">
      <h2 id="email-title">{t.emailSettings}</h2>
      <p>
        {current
          ? t.emailProviderSet(t.providers[current.provider], current.apiKeyLast4, formatDateTime(current.updatedAt, language))
          : t.noEmailProvider}
      </p>
      <form
        ref={form}
        class="panel"
        key={current?.updatedAt}
        aria-label={t.emailSettings}
        onSubmit={(event) => {
          event.preventDefault()
          const body = proposed()
          if (body) void run(() => client.PUT('/api/organizations/settings/email', { body }), t.saved)
        }}
      >
        <label for="email-provider">{t.provider}</label>
        <select {...field('provider')} defaultValue={current?.provider ?? 'smtp'}>
          {VALUES.EmailSettingsUpdate.provider.map((provider) => (
            <option key={provider} value={provider}>
              {t.providers[provider]}
            </option>
          ))}
        </select>
        <FieldProblem id="email-provider" message={refused.provider} />
        <label for="email-key">{t.apiKey}</label>
        <input
          {...field('apiKey', true)}
          type="password"
          autocomplete="off"
          maxLength={MAX_LENGTH.EmailSettingsUpdate.apiKey}
          required={!current}
        />
        <FieldProblem id="email-key" message={refused.apiKey} />
        <p id="email-key-hint" class="meta">
          {current ? t.apiKeyKept : apiKeyHint()}
        </p>
        <label for="email-from">{t.fromEmail}</label>
        <input {...field('fromEmail')} type="email" defaultValue={current?.fromEmail} required />
        <FieldProblem id="email-from" message={refused.fromEmail} />
        <label for="email-from-name">{t.fromName}</label>
        <input {...field('fromName')} defaultValue={current?.fromName} maxLength={MAX_LENGTH.EmailSettingsUpdate.fromName} />
        <FieldProblem id="email-from-name" message={refused.fromName} />
        <button type="submit">{t.saveEmailSettings}</button>
        <FormOutcome outcome={outcome} errors={errors} fields={fields} />
      </form>
      <form class="inline" aria-label={t.sendTestEmail} onSubmit={sendTest}>
        <div>
          <label for="email-test-to">{t.testRecipient}</label>
          <input
            id="email-test-to"
            name="toEmail"
            type="email"
            autocomplete="email"
            required
            aria-invalid={test.errors.toEmail ? true : undefined}
            aria-describedby={describedBy('email-test-to', false, test.errors.toEmail)}
          />
          <FieldProblem id="email-test-to" message={test.errors.toEmail} />
        </div>
        <button type="submit">{t.sendTestEmail}</button>
      </form>
      <FormOutcome
        outcome={test.outcome}
        errors={test.errors}
        fields={{ ...fields, toEmail: { id: 'email-test-to', label: t.testRecipient } }}
        refused={t.fixFieldsNotSent}
      />
    </section>
  )
}
