import createClient from 'openapi-fetch'
import { FIELDS, VALUES } from '../../api-constants'
import type { paths } from '../../schema'
import type { FieldError, Status } from './api-types'

// The console's one way to the service: the typed client generated from the served OpenAPI document
// (schema.d.ts, kept equal to a fresh generation by a test), on the page's own origin.
export type * from './api-types'

export const STATUSES: readonly Status[] = VALUES.NeedUpdate.status
/** A person's contact details, in the API's order: what the duplicate check takes, and a new person's intake. */
export const CONTACT_FIELDS = FIELDS.DuplicateCheckDetails
/** What a person's record holds besides its id: the contact details and the household. */
export const PERSON_FIELDS = FIELDS.NewConstituent

/** The browser session's routes read this header's type: a form from another site cannot send it. */
export const JSON_HEADERS = { 'content-type': 'application/json' }

export const client = createClient<paths>({ baseUrl: location.origin })

let accessToken: string | undefined

export function setAccessToken(token: string | undefined) {
  accessToken = token
}

client.use({
  onRequest({ request }) {
    if (accessToken && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${accessToken}`)
    return request
  },
})

/** What a failed call says to a person: the problem's detail, or its field errors. */
export function problemText(error: unknown): string {
  const problem = error as { detail?: string; errors?: FieldError[] } | undefined
  if (problem?.errors?.length) return problem.errors.map((e) => `${e.path}: ${e.message}`).join('; ')
  return problem?.detail ?? String(error)
}
