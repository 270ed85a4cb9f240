import createClient from 'openapi-fetch'
import { FIELDS, VALUES } from '../../api-constants'
import type { components, paths } from '../../schema'

// The console's one way to the service: the typed client generated from the served OpenAPI document
// (schema.d.ts, kept equal to a fresh generation by a test), on the page's own origin.
export type Need = components['schemas']['Need']
export type CreatedNeed = components['schemas']['CreatedNeed']
export type Partner = components['schemas']['Partner']
export type Service = components['schemas']['Service']
export type Interaction = components['schemas']['Interaction']
export type NeedChange = components['schemas']['NeedChange']
export type Status = Need['status']
export type FieldError = components['schemas']['FieldError']
export type Profile = components['schemas']['Profile']
export type Permission = Profile['permissions'][number]
export type Member = components['schemas']['Member']
export type OrganizationSettings = components['schemas']['OrganizationSettings']
export type Constituent = components['schemas']['Constituent']
export type HouseholdMatch = components['schemas']['HouseholdMatch']
export type Role = Member['role']
export type GrantedProfile = Profile['profiles'][number]
export type AuditEvent = components['schemas']['AuditEvent']
export type DuplicateCheck = components['schemas']['DuplicateCheck']
export type EmailSettings = components['schemas']['EmailSettings']
export type WebhookEndpoint = components['schemas']['WebhookEndpoint']
export type WebhookDelivery = components['schemas']['WebhookDelivery']
export type UnattachedMessage = components['schemas']['Message']
/** A need as `GET /api/needs/{id}` answers it: whether its person may be texted now, and since when texts stopped. */
export type NeedDetail = components['schemas']['NeedDetail']
export type ConstituentDetail = components['schemas']['ConstituentDetail']
export type QuickReply = components['schemas']['QuickReply']

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
