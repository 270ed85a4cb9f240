import type { FieldError } from './api'
import { t } from './i18n'
import type { Outcome } from './outcome'

/** Each field's first error of a refused form, by the field's name (`/appOrigins/1` is the field `appOrigins`). */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  const found: Record<string, string> = {}
  for (const { path, message } of (error as { errors?: FieldError[] } | undefined)?.errors ?? []) {
    const field = path.split('/')[1] ?? ''
    found[field] ??= message
  }
  return found
}

/**
 * What came of a form, beside the button that sent it and announced: "Saved.", or what refused it, each field's
 * error by the field's label, a button taking the keyboard to it (links would change the console's address).
 */
export function FormOutcome({
  outcome,
  errors,
  fields,
  refused = t.fixFields,
}: {
  outcome: Outcome | undefined
  errors: Record<string, string>
  /** Each field's element id and label, by its name. */
  fields: Record<string, { id: string; label: string }>
  /** What a refusal that names fields says first: "Not saved. Correct these fields:". */
  refused?: string
}) {
  const named = Object.entries(errors).filter(([field]) => fields[field])
  return (
    <div role="status" class={outcome?.error ? 'error form-outcome' : 'notice form-outcome'}>
      {named.length > 0 ? (
        <>
          <p>{refused}</p>
          <ul>
            {named.map(([field, message]) => (
              <li key={field}>
                <button type="button" class="link" onClick={() => document.getElementById(fields[field]!.id)?.focus()}>
                  {fields[field]!.label}
                </button>
                : {message}
              </li>
            ))}
          </ul>
        </>
      ) : (
        outcome?.text
      )}
    </div>
  )
}

/** A field's error, under it: what the field's `aria-describedby` names as `<id>-error`. */
export function FieldProblem({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null
  return (
    <p id={`${id}-error`} class="error">
      {message}
    </p>
  )
}

/** The ids a field's `aria-describedby` names: its hint, and its error when it has one. */
export function describedBy(id: string, hint: boolean, error: string | undefined): string | undefined {
  return [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined
}
