import { useState } from 'preact/hooks'
import { problemText } from './api'
import { t } from './i18n'
import { authorized } from './session'

export interface Outcome {
  text: string
  error?: boolean
}

/**
 * What came of the last change on a screen, said in one live region, and the way to run a change: its call
 * (renewing the session on a 401), then the screen's reload when it succeeded.
 */
export function useOutcome(reload?: () => Promise<void>) {
  const [outcome, setOutcome] = useState<Outcome>()
  async function run<T>(call: () => Promise<{ data?: T; error?: unknown; response: Response }>, done: string): Promise<T | undefined> {
    const { data, error, response } = await authorized(call)
    if (error !== undefined) {
      setOutcome({ text: response.status === 403 ? t.forbidden : t.failed(problemText(error)), error: true })
      return undefined
    }
    await reload?.()
    setOutcome({ text: done })
    return data
  }
  return { outcome, setOutcome, run }
}

export function OutcomeLine({ outcome }: { outcome: Outcome | undefined }) {
  return (
    <div role="status" class={outcome?.error ? 'error' : 'notice'}>
      {outcome?.text}
    </div>
  )
}
