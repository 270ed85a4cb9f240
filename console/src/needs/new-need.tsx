import { Fragment } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { MAX_LENGTH } from '../../api-constants'
import { client, CONTACT_FIELDS, problemText, type DuplicateCheck } from '../shared/api'
import { may, usePartners, useProfile } from '../shared/data'
import { failure } from '../shared/outcome'
import { ActivePartnerOptions } from '../shared/partner-options'
import { t } from '../shared/i18n'
import { CheckedDuplicates, foundAnyone, PersonSearch, type ChosenPerson } from '../people/person-chooser'
import { personName } from '../shared/people'
import { go } from '../shared/router'
import { rememberCreated } from './created-need'
import { authorized } from '../shared/session'

type ContactField = (typeof CONTACT_FIELDS)[number]
type Contact = Partial<Record<ContactField, string>>

/** The contact inputs that take other than plain text. */
const INPUT_TYPES: Partial<Record<ContactField, 'tel' | 'email'>> = { phone: 'tel', email: 'email' }

function contactOf(form: FormData): Contact {
  const contact: Contact = {}
  for (const key of CONTACT_FIELDS) {
    const value = String(form.get(key) ?? '').trim()
    if (value) contact[key] = value
  }
  return contact
}

/**
 * Registers a need for someone on file (found by name, phone or email) or a new person. A new person's
 * possible duplicates show before the need is saved: "Create" checks the details first, and stops to show
 * whoever they may be; "Create" again keeps them a new person.
 */
export function NewNeed({ personId }: { personId?: string | undefined }) {
  const partners = usePartners()
  const profile = useProfile()
  const mayFind = may(profile, 'constituents:read')
  const [onFile, setOnFile] = useState(false)
  const [chosen, setChosen] = useState<ChosenPerson>()
  const [checked, setChecked] = useState<{ details: string; check: DuplicateCheck }>()
  const [error, setError] = useState('')
  useEffect(() => {
    document.title = `${t.newNeed} · ${t.appName}`
  }, [])
  const findsOnFile = mayFind && onFile
  // Opened from a person's screen ("New need for this person"): that person is chosen.
  useEffect(() => {
    if (!personId) return
    void authorized(() => client.GET('/api/constituents/{id}', { params: { path: { id: personId } } })).then(({ data }) => {
      if (data) choose({ id: data.id, name: personName(data) })
    })
  }, [personId])

  /** The details' check, run again only when they changed since the last one. */
  async function check(contact: Contact): Promise<DuplicateCheck | undefined> {
    const details = JSON.stringify(contact)
    if (checked?.details === details) return checked.check
    const { data, error: problem } = await authorized(() => client.POST('/api/constituents/duplicate-check', { body: contact }))
    if (!data) return void setError(t.failed(problemText(problem)))
    setError('')
    setChecked({ details, check: data })
    return data
  }

  async function checkForm(form: HTMLFormElement | null) {
    if (form) await check(contactOf(new FormData(form)))
  }

  async function submit(event: Event) {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    const description = String(form.get('description')).trim()
    const partnerId = String(form.get('partnerId'))
    let body: { partnerId: string; constituentId?: string; customFields: Record<string, string> }
    if (findsOnFile) {
      if (!chosen) return setError(t.person.chooseFirst)
      body = { partnerId, constituentId: chosen.id, customFields: { description } }
    } else {
      const contact = contactOf(form)
      const seenAlready = checked?.details === JSON.stringify(contact)
      if (mayFind && Object.keys(contact).length > 0 && !seenAlready) {
        const found = await check(contact)
        if (!found || foundAnyone(found)) return
      }
      body = { partnerId, customFields: { description, ...contact } }
    }
    const { data, error: problem, response } = await authorized(() => client.POST('/api/needs', { body }))
    if (!data) return setError(failure(response.status, problem).text)
    // The need itself shows next, saying it was created, with the possible duplicates its creation named.
    rememberCreated(data)
    go(['needs', data.referenceNumber])
  }

  const choose = (person: ChosenPerson) => {
    setChosen(person)
    setOnFile(true)
  }

  return (
    <>
      <h1>{t.newNeed}</h1>
      <div role="alert">{error && <p class="error">{error}</p>}</div>
      <form onSubmit={submit}>
        <label for="partnerId">{t.partner}</label>
        <select id="partnerId" name="partnerId" required>
          <option value="">{t.choosePartner}</option>
          <ActivePartnerOptions partners={partners} />
        </select>
        <label for="description">{t.description}</label>
        <textarea id="description" name="description" required />
        <fieldset>
          <legend>{t.person.who}</legend>
          {mayFind && (
            <div class="inline-choices">
              {[false, true].map((value) => (
                <div class="check" key={String(value)}>
                  <input
                    id={`person-${value ? 'on-file' : 'new'}`}
                    type="radio"
                    name="who"
                    checked={onFile === value}
                    onChange={() => setOnFile(value)}
                  />
                  <label for={`person-${value ? 'on-file' : 'new'}`}>{value ? t.person.onFile : t.person.newPerson}</label>
                </div>
              ))}
            </div>
          )}
          {findsOnFile && chosen && (
            <p class="notice">
              <strong>{t.person.chosen(chosen.name)}</strong>{' '}
              <button type="button" class="secondary" onClick={() => setChosen(undefined)}>
                {t.person.another}
              </button>
            </p>
          )}
          {findsOnFile && !chosen && <PersonSearch onChoose={choose} />}
          {!findsOnFile && (
            <>
              {CONTACT_FIELDS.map((key) => (
                <Fragment key={key}>
                  <label for={key}>{t.personFields[key]}</label>
                  <input
                    id={key}
                    name={key}
                    // Preact types each input type apart, and take no union of them.
                    type={(INPUT_TYPES[key] ?? 'text') as 'text'}
                    maxLength={MAX_LENGTH.DuplicateCheckDetails[key]}
                    autocomplete="off"
                  />
                </Fragment>
              ))}
              {mayFind && (
                <button type="button" class="secondary" onClick={(event) => void checkForm(event.currentTarget.form)}>
                  {t.person.checkDuplicates}
                </button>
              )}
              {checked && <CheckedDuplicates check={checked.check} onChoose={choose} />}
            </>
          )}
        </fieldset>
        <button type="submit">{t.create}</button>
      </form>
    </>
  )
}
