import { expect } from 'bun:test'
import { ProviderError } from '../../../src/application/ports/provider-error'

export interface CapturedRequest {
  method: string
  url: URL
  headers: Headers
  body: string
}

/** Collects what a msw handler received, body read as text. */
export function captureRequests() {
  const all: CapturedRequest[] = []
  return {
    all,
    async add(request: Request) {
      all.push({
        method: request.method,
        url: new URL(request.url),
        headers: new Headers(request.headers),
        body: await request.clone().text(),
      })
    },
  }
}

/**
 * The promise rejects with a ProviderError titled 'Failed to send email', retryable as given, whose
 * message names a reason and holds none of the secrets. Answers the error for further checks.
 */
export async function expectRefusal(
  sending: Promise<unknown>,
  expected: { retryable: boolean; secrets: readonly string[] },
): Promise<ProviderError> {
  const outcome = await sending.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  )
  if (outcome.ok) throw new Error(`expected a ProviderError, the send answered ${JSON.stringify(outcome.value)}`)
  const error = outcome.error
  expect(error).toBeInstanceOf(ProviderError)
  const failure = error as ProviderError
  expect(failure.title).toBe('Failed to send email')
  expect(failure.retryable).toBe(expected.retryable)
  expect(failure.message.length).toBeGreaterThan(0)
  for (const secret of expected.secrets) expect(failure.message).not.toContain(secret)
  return failure
}
