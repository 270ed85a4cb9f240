import { Fragment } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { FIELDS, MAX_LENGTH } from '../../api-constants'
import { client, type Constituent, type FieldError, type Profile } from '../shared/api'
import { may } from '../shared/data'
import { t } from '../shared/i18n'
import { failure, OutcomeLine, type Outcome } from '../shared/outcome'
import { authorized } from '../shared/session'

type Field = (typeof FIELDS.ConstituentUpdate)[number]
type Changes = Partial<Record<Field, string | null>>

const INPUT_TYPES: Partial<Record<Field, 'tel' | 'email' | 'date'>> = { phone: 'tel', email: 'email', dateOfBirth: 'date' }
const CONTACT: readonly Field[] = ['phone', 'email']

/**
 * The details a member may change are those it may read (docs/api/access.md "Permissions"): names always, phone
 * and email with `constituents:read-contact`, the rest with `constituents:read-pii`. A detail it cannot see is
 * not offered, so nobody overwrites what they were not shown.
 */
function editable(profile: Profile | undefined): Field[] {
  if (may(profile, 'constituents:read-pii')) return [...FIELDS.ConstituentUpdate]
  const readable = may(profile, 'constituents:read-contact') ? CONTACT : []
  return FIELDS.ConstituentUpdate.filter((field) => field === 'firstName' || field === 'lastName' || readable.includes(field))
}

/** The fields that differ from the record: a value, or null where one was emptied. */
function changesOf(form: FormData, fields: Field[], person: Constituent): Changes {
  const changes: Changes = {}
  for (const field of fields) {
    const value = String(form.get(field) ?? '').trim()
    if (value !== (person[field] ?? '')) changes[field] = value || null
  }
  return changes
}

/** The service's field errors by field name (`/phone` is `phone`). */
function byField(error: unknown): Partial<Record<string, string>> {
  const errors = (error as { errors?: FieldError[] } | undefined)?.errors ?? []
  return Object.fromEntries(errors.map((e) => [e.path.replace(/^\//, ''), e.message]))
}

/** "Edit details": a person's details as the member may change them (PUT, only what changed), each refusal beside its field. */
export function PersonEdit({
  person,
  profile,
  onSaved,
}: {
  person: Constituent
  profile: Profile | undefined
  onSaved: () => Promise<void>
}) {
  const [open, setOpen] = useState(false)
  const [outcome, setOutcome] = useState<Outcome>()
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({})
  // The keyboard goes to the form's first field when it opens, and back to "Edit details" when it closes.
  const start = useRef<HTMLButtonElement>(null)
  const form = useRef<HTMLFormElement>(null)
  const toggled = useRef(false)
  useEffect(() => {
    if (toggled.current) (open ? form.current?.querySelector('input') : start.current)?.focus()
    toggled.current = true
  }, [open])
  if (!may(profile, 'constituents:update') || person.erasedAt) return null
  const fields = editable(profile)

  async function save(event: Event) {
    event.preventDefault()
    const body = changesOf(new FormData(event.currentTarget as HTMLFormElement), fields, person)
    const { error, response } = await authorized(() => client.PUT('/api/constituents/{id}', { params: { path: { id: person.id } }, body }))
    setErrors(byField(error))
    if (error) return setOutcome(failure(response.status, error))
    await onSaved()
    setOpen(false)
    setOutcome({ text: t.personEdit.saved })
  }

  return (
    <>
      <OutcomeLine outcome={outcome} />
      {!open ? (
        <button ref={start} type="button" class="secondary" onClick={() => setOpen(true)}>
          {t.personEdit.start}
        </button>
      ) : (
        <form ref={form} class="panel" aria-labelledby="person-edit-title" onSubmit={save}>
          <h2 id="person-edit-title">{t.personEdit.title}</h2>
          {fields.map((field) => (
            <Fragment key={field}>
              <label for={`edit-${field}`}>{t.personFields[field]}</label>
              <input
                id={`edit-${field}`}
                name={field}
                // Preact types each input type apart, and take no union of them.
                type={(INPUT_TYPES[field] ?? 'text') as 'text'}
                defaultValue={person[field] ?? ''}
                maxLength={MAX_LENGTH.ConstituentUpdate[field]}
                autocomplete="off"
                aria-invalid={errors[field] ? 'true' : undefined}
                aria-describedby={errors[field] ? `edit-${field}-error` : undefined}
              />
              {errors[field] && (
                <p id={`edit-${field}-error`} class="error">
                  {errors[field]}
                </p>
              )}
            </Fragment>
          ))}
          <button type="submit">{t.personEdit.save}</button>{' '}
          <button
            type="button"
            class="secondary"
            onClick={() => {
              setErrors({})
              setOpen(false)
            }}
          >
            {t.cancel}
          </button>
        </form>
      )}
    </>
  )
}
