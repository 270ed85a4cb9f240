import { MAX_LENGTH } from '../../api-constants'
import { useEffect, useState } from 'preact/hooks'
import { client, type OrganizationSettings } from '../shared/api'
import { describedBy, FieldProblem, fieldErrorsOf, FormOutcome } from '../shared/field-errors'
import { CheckField, Field, NumberField } from './settings-fields'
import { failure, OutcomeLine, useOutcome } from '../shared/outcome'
import { authorized } from '../shared/session'
import { EmailSettingsSection } from './email-settings'
import { IntakeLinkSection, SlugChangeWarning } from '../shared/intake-link'
import { t } from '../shared/i18n'

/** The organization's settings, its SMS number (an operator's to set) and its email settings. */
export function OrganizationScreen() {
  const [settings, setSettings] = useState<OrganizationSettings>()
  async function load() {
    await read(() => client.GET('/api/organizations/settings'), setSettings)
  }
  const { outcome, setOutcome, read } = useOutcome(load)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [typedSlug, setTypedSlug] = useState('')
  useEffect(() => void load(), [])
  if (!settings) return outcome?.error ? <OutcomeLine outcome={outcome} /> : <p role="status">{t.loading}</p>
  // Each field's id and label, for its error beside it and in the list beside the button.
  const fields = {
    name: { id: 'org-name', label: t.organizationName },
    slug: { id: 'org-slug', label: t.slug },
    shortCode: { id: 'org-short-code', label: t.shortCode },
    auditRetentionDays: { id: 'org-retention', label: t.auditRetention },
    appOrigins: { id: 'org-app-origins', label: t.appOrigins },
    formOrigins: { id: 'org-form-origins', label: t.formOrigins },
    digestHour: { id: 'org-digest-hour', label: t.digestHour },
    timeZone: { id: 'org-time-zone', label: t.timeZone },
    defaultCountry: { id: 'org-default-country', label: t.defaultCountry },
    confirmRequests: { id: 'org-confirm-requests', label: t.confirmRequests },
    description: { id: 'org-description', label: t.organizationDescription },
    publishDirectory: { id: 'org-publish-directory', label: t.publishDirectory },
    constituentRetentionDays: { id: 'org-constituent-retention', label: t.constituentRetention },
    needTextRetentionDays: { id: 'org-need-text-retention', label: t.needTextRetention },
  }
  /** A field's id, name, label and error, from the table above. */
  const named = (name: keyof typeof fields) => ({ ...fields[name], name, error: errors[name] })

  return (
    <>
      <section aria-labelledby="organization-title">
        <h2 id="organization-title">{t.adminSections.organization}</h2>
        <form
          class="panel"
          // The slug as typed, for the warning under it (read where the input bubbles up to).
          onInput={(event) => {
            const field = event.target as HTMLInputElement
            if (field.name === 'slug') setTypedSlug(field.value.trim())
          }}
          onSubmit={(event) => {
            event.preventDefault()
            const form = new FormData(event.currentTarget)
            const text = (name: string) => String(form.get(name)).trim()
            const body = {
              name: text('name'),
              slug: text('slug'),
              shortCode: text('shortCode') || null,
              auditRetentionDays: Number(form.get('auditRetentionDays')),
              appOrigins: lines(text('appOrigins')),
              formOrigins: lines(text('formOrigins')),
              digestHour: Number(form.get('digestHour')),
              timeZone: text('timeZone'),
              defaultCountry: text('defaultCountry').toUpperCase(),
              confirmRequests: form.get('confirmRequests') === 'on',
              description: text('description') || null,
              publishDirectory: form.get('publishDirectory') === 'on',
              // An empty box keeps everything: null, not 0.
              constituentRetentionDays: daysOrNull(text('constituentRetentionDays')),
              needTextRetentionDays: daysOrNull(text('needTextRetentionDays')),
            }
            void (async () => {
              // A refusal keeps what was typed (the fields are left as they are) and says each field's error.
              const { error, response } = await authorized(() => client.PUT('/api/organizations/settings', { body }))
              setErrors(error ? fieldErrorsOf(error) : {})
              if (error) return setOutcome(failure(response.status, error))
              await load()
              setOutcome({ text: t.saved })
            })()
          }}
        >
          <label for="org-name">{t.organizationName}</label>
          <input
            id="org-name"
            name="name"
            defaultValue={settings.name}
            maxLength={MAX_LENGTH.OrganizationSettingsUpdate.name}
            autocomplete="organization"
            required
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={describedBy('org-name', false, errors.name)}
          />
          <FieldProblem id="org-name" message={errors.name} />
          <Field id="org-slug" name="slug" error={errors.slug} label={t.slug} hint={t.slugHint} value={settings.slug} required />
          <SlugChangeWarning saved={settings.slug} typed={typedSlug || settings.slug} />
          <Field
            id="org-short-code"
            name="shortCode"
            error={errors.shortCode}
            label={t.shortCode}
            hint={t.shortCodeHint}
            value={settings.shortCode}
          />
          <NumberField
            id="org-retention"
            name="auditRetentionDays"
            error={errors.auditRetentionDays}
            label={t.auditRetention}
            range={[7, 3650]}
            value={settings.auditRetentionDays}
            required
          />
          <Field
            id="org-app-origins"
            name="appOrigins"
            error={errors.appOrigins}
            label={t.appOrigins}
            hint={t.appOriginsHint}
            value={settings.appOrigins.join('\n')}
            multiline
          />
          <Field
            id="org-form-origins"
            name="formOrigins"
            error={errors.formOrigins}
            label={t.formOrigins}
            hint={t.formOriginsHint}
            value={settings.formOrigins.join('\n')}
            multiline
          />
          <NumberField
            id="org-digest-hour"
            name="digestHour"
            error={errors.digestHour}
            label={t.digestHour}
            range={[0, 23]}
            value={settings.digestHour}
            required
          />
          <Field
            id="org-time-zone"
            name="timeZone"
            error={errors.timeZone}
            label={t.timeZone}
            hint={t.timeZoneHint}
            value={settings.timeZone}
            required
          />
          <Field
            id="org-default-country"
            name="defaultCountry"
            error={errors.defaultCountry}
            label={t.defaultCountry}
            hint={t.defaultCountryHint}
            value={settings.defaultCountry}
            required
          />
          <CheckField {...named('confirmRequests')} hint={t.confirmRequestsHint} checked={settings.confirmRequests} />
          <Field
            {...named('description')}
            hint={t.organizationDescriptionHint}
            value={settings.description}
            maxLength={MAX_LENGTH.OrganizationSettingsUpdate.description}
            multiline
          />
          <CheckField
            {...named('publishDirectory')}
            hint={t.publishDirectoryHint(`${settings.publicBaseUrl}/hsds/${settings.slug}`)}
            checked={settings.publishDirectory}
          />
          <NumberField
            id="org-constituent-retention"
            name="constituentRetentionDays"
            error={errors.constituentRetentionDays}
            label={t.constituentRetention}
            range={RETENTION_RANGE}
            value={settings.constituentRetentionDays}
            hint={t.retentionHint}
          />
          <NumberField
            id="org-need-text-retention"
            name="needTextRetentionDays"
            error={errors.needTextRetentionDays}
            label={t.needTextRetention}
            range={RETENTION_RANGE}
            value={settings.needTextRetentionDays}
            hint={t.retentionHint}
          />
          <button type="submit">{t.saveSettings}</button>
          <FormOutcome outcome={outcome} errors={errors} fields={fields} />
        </form>
      </section>
      <IntakeLinkSection organization={settings} />
      <section aria-labelledby="sms-title">
        <h2 id="sms-title">{t.smsNumber}</h2>
        <p>{settings.phoneNumber ? <strong>{settings.phoneNumber}</strong> : t.noSmsNumber}</p>
        <p class="meta">{t.smsNumberHint}</p>
      </section>
      <EmailSettingsSection />
    </>
  )
}

const daysOrNull = (text: string) => (text === '' ? null : Number(text))

/** The retention of people and of needs' text, in days (docs/privacy.md "Retention"); empty keeps everything. */
const RETENTION_RANGE: [number, number] = [30, 36500]

/** The lines of a text box, each trimmed, empty ones left out. */
function lines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
}
