import { expect } from 'bun:test'
import { createHmac } from 'node:crypto'
import { createServer, type AddressInfo } from 'node:net'
import { DispatchOutbox } from '../../../src/application/messaging/dispatch-outbox'
import { PORTS } from '../../../src/main/container'
import type { FallbackEmail } from '../../support/captured-mail'
import type { DocumentedField } from '../../support/contact-fields'
import type { ApiResponse, TestServer } from '../../support/http'

// Shared checks for the HTTP end-to-end suites (docs/api/conventions.md "Errors").

/** UTC ISO-8601 with milliseconds and Z. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** An RFC 9457 problem with its status's title; answers the body for further checks. */
export function expectProblem(response: ApiResponse, status: number, title: string) {
  expect({ status: response.status, body: response.body }).toMatchObject({ status, body: { status, title } })
  expect(response.headers.get('content-type')).toStartWith('application/problem+json')
  const body = response.body as { type: unknown; title: unknown; status: unknown; detail: unknown; errors?: unknown }
  expect(typeof body.type).toBe('string')
  expect(typeof body.detail).toBe('string')
  expect((body.detail as string).length).toBeGreaterThan(0)
  if (body.errors !== undefined) {
    expect(Array.isArray(body.errors)).toBe(true)
    for (const e of body.errors as Array<Record<string, unknown>>) {
      expect(typeof e.path).toBe('string')
      expect(typeof e.message).toBe('string')
    }
  }
  return body as { type: string; title: string; status: number; detail: string; errors?: Array<{ path: string; message: string }> }
}

/** A 400 that names the offending field (an `errors` entry whose path contains it). */
export function expectBadRequest(response: ApiResponse, field?: string, title = 'Bad request') {
  const body = expectProblem(response, 400, title)
  if (field !== undefined) {
    expect(body.errors?.map((e) => e.path).some((path) => path.includes(field))).toBe(true)
  }
  return body
}

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url')

/** A JWT signed HS256 with `secret` (or unsigned with `alg: none`), for forged and expired tokens. */
export function forgeToken(
  secret: string,
  payload: Record<string, unknown>,
  header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' },
): string {
  const head = `${b64(header)}.${b64(payload)}`
  if (header.alg === 'none') return `${head}.`
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`
}

export function jwtSecretOf(api: TestServer): string {
  return api.server.container.get(PORTS.config).jwtSecret
}

/** The claims of an access token (the signature is not checked). */
export function claimsOf(token: string): { sub: string; org: string; sid: string; iat: number; exp: number; jti: string } {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'))
}

/** The RFC 8288 Link header as { rel: url }. */
export function linksOf(response: ApiResponse): Record<string, string> {
  const header = response.headers.get('link') ?? ''
  const links: Record<string, string> = {}
  for (const part of header.split(',')) {
    const match = /<([^>]+)>;\s*rel="([^"]+)"/.exec(part.trim())
    if (match) links[match[2]!] = match[1]!
  }
  return links
}

/** The `page` and `limit` a link points at. */
export function pageOfLink(link: string | undefined): { page: number; limit: number } | undefined {
  if (!link) return undefined
  const url = new URL(link, 'http://x')
  return { page: Number(url.searchParams.get('page')), limit: Number(url.searchParams.get('limit')) }
}

/** Contact fields a constituent may have (tests/support/contact-fields.ts). */
export type ConstituentFields = Partial<Record<DocumentedField, string>>

/**
 * A constituent (in a new household unless `householdId` is given) registered through
 * `POST /api/constituents` by the caller of `token`, so needs can point at it.
 */
export async function seedConstituent(
  api: TestServer,
  token: string,
  fields: ConstituentFields & { householdId?: string } = { firstName: 'Ada', lastName: 'Lovelace' },
): Promise<{ constituentId: string; householdId: string }> {
  const response = await api.call<{ id: string; householdId: string }>('POST', '/api/constituents', { token, body: fields })
  expect({ status: response.status, body: response.body }).toMatchObject({ status: 201 })
  return { constituentId: response.body.id, householdId: response.body.householdId }
}

export const UNKNOWN_ID = '2d9f4b1e-8c7a-4f3e-9b2d-1a6c5e4f3a2b'

/** The emails to `to` the fallback (of organizations without email settings) was handed so far, oldest first. */
export function fallbackEmailsTo(api: TestServer, to: string): FallbackEmail[] {
  return api.fallbackMail.to(to)
}

/** Sends what the outbox holds (the worker may be sending too) until `found` answers something, for up to 10 s. */
export async function deliverUntil<T>(api: TestServer, found: () => T | undefined, what = 'the email'): Promise<T> {
  const dispatch = api.server.container.get(DispatchOutbox)
  for (const giveUp = Date.now() + 10_000; Date.now() < giveUp; ) {
    await dispatch.runOnce()
    const result = found()
    if (result !== undefined) return result
    await Bun.sleep(10)
  }
  throw new Error(`${what} never arrived`)
}

/** The newest invitation the fallback was handed for `to` (after sending the outbox). */
export function fallbackInvitationTo(api: TestServer, to: string): Promise<FallbackEmail> {
  return deliverUntil(api, () => fallbackEmailsTo(api, to).at(-1), `the invitation to ${to}`)
}

/** The invitation link in an email's text, and its token. */
export function invitationIn(text: string): { link: string; token: string } {
  const match = /(\S+\/accept-invite\?token=(\S+))/.exec(text)
  if (!match) throw new Error(`no invitation link in: ${text}`)
  return { link: match[1]!, token: decodeURIComponent(match[2]!) }
}

/** A page as a browser without JavaScript gets it (docs/api/pages.md "Pages"). */
export interface PageResponse {
  status: number
  headers: Headers
  text: string
}

export async function getPage(api: TestServer, path: string, headers: Record<string, string> = {}): Promise<PageResponse> {
  const response = await fetch(`${api.url}${path}`, { headers })
  return { status: response.status, headers: response.headers, text: await response.text() }
}

/** Posts a form as a browser does from the service's own page, unless `headers` say otherwise. */
export async function postForm(
  api: TestServer,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = { 'sec-fetch-site': 'same-origin' },
  redirect: 'follow' | 'manual' = 'follow',
): Promise<PageResponse> {
  const response = await fetch(`${api.url}${path}`, {
    method: 'POST',
    redirect,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  })
  return { status: response.status, headers: response.headers, text: await response.text() }
}

/** A local port nothing listens on: a mail server there cannot be reached. */
export async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()))
  const port = (probe.address() as AddressInfo).port
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}
