import { describedBy, FieldProblem } from '../shared/field-errors'

// The settings forms' fields: each with its label, its hint and its error beside it (docs/console.md "Accessibility").

export /** A whole number within `range`, with its hint when it has one; empty when it has no value. */
function NumberField(props: {
  id: string
  name: string
  label: string
  range: [number, number]
  value?: number | null
  required?: boolean
  hint?: string
  error?: string
}) {
  return (
    <>
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        name={props.name}
        type="number"
        min={props.range[0]}
        max={props.range[1]}
        defaultValue={props.value == null ? '' : String(props.value)}
        required={props.required}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(props.id, Boolean(props.hint), props.error)}
      />
      <FieldProblem id={props.id} message={props.error} />
      {props.hint && (
        <p id={`${props.id}-hint`} class="meta">
          {props.hint}
        </p>
      )}
    </>
  )
}

export /** A text field with its hint; `multiline` for a list, one item a line. */
function Field(props: {
  id: string
  name: string
  label: string
  hint: string
  value?: string
  required?: boolean
  multiline?: boolean
  maxLength?: number
  error?: string
}) {
  const input = {
    id: props.id,
    name: props.name,
    defaultValue: props.value,
    maxLength: props.maxLength,
    'aria-invalid': props.error ? true : undefined,
    'aria-describedby': describedBy(props.id, true, props.error),
  }
  return (
    <>
      <label for={props.id}>{props.label}</label>
      {props.multiline ? <textarea {...input} rows={3} /> : <input {...input} required={props.required} autocomplete="off" />}
      <FieldProblem id={props.id} message={props.error} />
      <p id={`${props.id}-hint`} class="meta">
        {props.hint}
      </p>
    </>
  )
}

/** A checkbox with its hint below it. */
export function CheckField(props: { id: string; name: string; label: string; hint: string; checked?: boolean }) {
  return (
    <>
      <div class="check">
        <input id={props.id} name={props.name} type="checkbox" defaultChecked={props.checked} aria-describedby={`${props.id}-hint`} />
        <label for={props.id}>{props.label}</label>
      </div>
      <p id={`${props.id}-hint`} class="meta">
        {props.hint}
      </p>
    </>
  )
}
