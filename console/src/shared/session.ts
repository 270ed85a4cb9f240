import { client, JSON_HEADERS, setAccessToken } from './api'

// docs/console.md "Sessions": the access token lives in this module only; the refresh token is an httpOnly
// cookie the script never sees. The token is renewed a minute before it lapses.
type Listener = (state: SessionState) => void
export type SessionState = 'unknown' | 'signed-in' | 'signed-out' | 'lapsed'

const RENEW_AHEAD_SECONDS = 60
let state: SessionState = 'unknown'
let renewal: ReturnType<typeof setTimeout> | undefined
let refreshing: Promise<boolean> | undefined
const listeners = new Set<Listener>()

function become(next: SessionState) {
  state = next
  for (const listener of listeners) listener(next)
}

export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener)
  listener(state)
  return () => listeners.delete(listener)
}

function keep(session: { accessToken: string; expiresIn: number }) {
  setAccessToken(session.accessToken)
  clearTimeout(renewal)
  renewal = setTimeout(() => void refreshSession(), Math.max(5, session.expiresIn - RENEW_AHEAD_SECONDS) * 1000)
  become('signed-in')
}

function drop(next: SessionState) {
  setAccessToken(undefined)
  clearTimeout(renewal)
  become(next)
}

/** 'ok', or what kept the member out: wrong credentials, too many tries or anything else's detail. */
export async function logIn(
  email: string,
  password: string,
  organizationSlug?: string,
): Promise<{ ok: true } | { ok: false; status: number; detail: string }> {
  const { data, error, response } = await client.POST('/api/auth/session', {
    body: { email, password, ...(organizationSlug ? { organizationSlug } : {}) },
  })
  if (data) {
    keep(data)
    return { ok: true }
  }
  return { ok: false, status: response.status, detail: error?.detail ?? '' }
}

/**
 * Changes the member's own password. The change ends every session of the member, this one too: the console
 * logs in again at once with the new password (a new cookie session). 'ok', or what went wrong.
 */
export async function changePassword(
  email: string,
  passwords: { currentPassword: string; newPassword: string },
  organizationSlug?: string,
): Promise<{ ok: true } | { ok: false; problem: unknown }> {
  const { error } = await authorized(() => client.POST('/api/profile/password', { body: passwords }))
  if (error) return { ok: false, problem: error }
  const session = await logIn(email, passwords.newPassword, organizationSlug)
  return session.ok ? session : { ok: false, problem: { detail: session.detail } }
}

/**
 * Trades the cookie for a new access token. The cookie is used up by an exchange, and presenting it twice
 * would end the session: calls at the same moment in this tab share one exchange, and the tabs of this
 * browser take turns (a Web Lock, where the browser has them: on https and localhost), each sending the
 * cookie the one before set.
 */
export function refreshSession(): Promise<boolean> {
  const exchange = () => client.POST('/api/auth/session/refresh', { headers: JSON_HEADERS })
  refreshing ??= (navigator.locks ? navigator.locks.request('intake-session-refresh', exchange) : exchange())
    .then(({ data }) => {
      if (data) keep(data)
      else drop(state === 'unknown' ? 'signed-out' : 'lapsed')
      return Boolean(data)
    })
    .catch(() => false)
    .finally(() => (refreshing = undefined))
  return refreshing
}

/** Ends the session on the server too (renewing the access token first if it lapsed), whatever it answers. */
export async function logOut() {
  await authorized(() => client.POST('/api/auth/session/logout', { headers: JSON_HEADERS })).catch(() => undefined)
  drop('signed-out')
}

/**
 * Runs an API call; on a 401 renews the session once and runs it again. When that fails too the session has
 * lapsed: the login shows, and the place (the address) stays as it was.
 */
export async function authorized<T extends { response: Response }>(call: () => Promise<T>): Promise<T> {
  const first = await call()
  if (first.response.status !== 401) return first
  if (!(await refreshSession())) return first
  return call()
}
