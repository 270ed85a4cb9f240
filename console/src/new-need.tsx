import { useEffect, useState } from 'preact/hooks'
import { client, problemText, type CreatedNeed } from './api'
import { usePartners } from './data'
import { t } from './i18n'
import { href } from './router'
import { authorized } from './session'

/** The intake fields asked here, each a key of the need's custom fields; the contact ones register the person. */
const CONTACT_FIELDS = ['firstName', 'lastName', 'phone', 'email'] as const

/** Registers a need; once created, shows its reference number and the possible duplicates the API names. */
export function NewNeed() {
  const partners = usePartners()
  const [created, setCreated] = useState<CreatedNeed>()
  const [error, setError] = useState('')
  useEffect(() => {
    document.title = `${t.newNeed} · ${t.appName}`
  }, [])

  async function submit(event: Event) {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    const customFields: Record<string, string> = { description: String(form.get('description')).trim() }
    for (const key of CONTACT_FIELDS) {
      const value = String(form.get(key) ?? '').trim()
      if (value) customFields[key] = value
    }
    const {
      data,
      error: problem,
      response,
    } = await authorized(() => client.POST('/api/needs', { body: { partnerId: String(form.get('partnerId')), customFields } }))
    if (data) {
      setError('')
      setCreated(data)
    } else setError(response.status === 403 ? t.forbidden : t.failed(problemText(problem)))
  }

  if (created) {
    return (
      <>
        <h1>{t.newNeed}</h1>
        <p role="status" class="notice">
          {t.created_(created.referenceNumber)} <span class="reference">{created.referenceNumber}</span>
        </p>
        <p>
          <a href={href(['needs', created.referenceNumber])}>{t.openNeed}</a>
        </p>
        {created.duplicateWarning && <p class="notice">{created.duplicateWarning}</p>}
        {created.possibleDuplicates && (
          <section aria-labelledby="duplicates-title">
            <h2 id="duplicates-title">{t.duplicates}</h2>
            <ul>
              {created.possibleDuplicates.map((duplicate) => (
                <li key={duplicate.constituentId}>
                  {duplicate.constituentId}: {duplicate.reasons.join(', ')}
                </li>
              ))}
            </ul>
          </section>
        )}
        <p>
          <a href={href(['new'])} onClick={() => setCreated(undefined)}>
            {t.newNeed}
          </a>
        </p>
      </>
    )
  }

  return (
    <>
      <h1>{t.newNeed}</h1>
      <div role="alert">{error && <p class="error">{error}</p>}</div>
      <form onSubmit={submit}>
        <label for="partnerId">{t.partner}</label>
        <select id="partnerId" name="partnerId" required>
          <option value="">{t.choosePartner}</option>
          {partners
            .filter((partner) => !partner.isArchived)
            .map((partner) => (
              <option key={partner.id} value={partner.id}>
                {partner.name}
              </option>
            ))}
        </select>
        <label for="description">{t.description}</label>
        <textarea id="description" name="description" required />
        <label for="firstName">{t.firstName}</label>
        <input id="firstName" name="firstName" type="text" autocomplete="off" />
        <label for="lastName">{t.lastName}</label>
        <input id="lastName" name="lastName" type="text" autocomplete="off" />
        <label for="phone">{t.phone}</label>
        <input id="phone" name="phone" type="tel" autocomplete="off" />
        <label for="email">{t.email}</label>
        <input id="email" name="email" type="email" autocomplete="off" />
        <button type="submit">{t.create}</button>
      </form>
    </>
  )
}
