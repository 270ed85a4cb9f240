import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import { problemText } from './api'
import { fieldErrorsOf } from './field-errors'
import { t } from './i18n'
import { authorized } from './session'

export interface Outcome {
  text: string
  error?: boolean
}

type Call<T> = () => Promise<{ data?: T; error?: unknown; response: Response }>

/** What a refused or failed call says: the role's refusal, or the service's reason. */
export function failure(status: number, error: unknown): Outcome {
  return { text: status === 403 ? t.forbidden : t.failed(problemText(error)), error: true }
}

/**
 * What came of the last call on a screen, said in one live region. `read` loads what the screen shows;
 * `run` makes a change, then reloads the screen when it succeeded, and keeps each refused field's error
 * (`errors`, by field name) for the form to show beside its fields. Both renew the session on a 401.
 */
export function useOutcome(reload?: () => Promise<void>) {
  const [outcome, setOutcome] = useState<Outcome>()
  const [errors, setErrors] = useState<Record<string, string>>({})
  async function read<T>(call: Call<T>, keep: (data: T) => void): Promise<void> {
    const { data, error, response } = await authorized(call)
    if (data !== undefined) keep(data)
    else setOutcome(failure(response.status, error))
  }
  async function run<T>(call: Call<T>, done: string): Promise<T | undefined> {
    const { data, error, response } = await authorized(call)
    setErrors(error === undefined ? {} : fieldErrorsOf(error))
    if (error !== undefined) {
      setOutcome(failure(response.status, error))
      return undefined
    }
    await reload?.()
    setOutcome({ text: done })
    return data
  }
  return { outcome, setOutcome, errors, read, run }
}

export function OutcomeLine({ outcome }: { outcome: Outcome | undefined }) {
  return (
    <div role="status" class={outcome?.error ? 'error' : 'notice'}>
      {outcome?.text}
    </div>
  )
}

/** A screen's read as it stands: loading while undefined, the reason it failed (a string) as an alert, else what `children` makes of it. */
export function Answered<T extends object>({
  answer,
  children,
}: {
  answer: T | string | undefined
  children: (value: T) => ComponentChildren
}) {
  if (answer === undefined) return <p role="status">{t.loading}</p>
  if (typeof answer === 'string')
    return (
      <p role="alert" class="error">
        {answer}
      </p>
    )
  return <>{children(answer)}</>
}
