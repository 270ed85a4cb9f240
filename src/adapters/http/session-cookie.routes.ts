import { Elysia, t } from 'elysia'
import { REFRESH_TOKEN_LIFETIME_MS, type TokenPair } from '../../application/auth/token-pair'
import type { UseCases } from '../../application/use-cases'
import { UnauthorizedError } from '../../domain/errors'
import { ACCESS_TOKEN, LoginBody, OWN_SITE, REFRESH_TOKEN } from './auth.routes'
import type { AuthenticationPlugin } from './authentication'
import { clientAddress } from './client-address'
import { Int32, Named, problems, Text } from './common.schemas'
import { problemResponse } from './problem'
import { rateLimited, type RateLimits } from './rate-limits'
import type { RequestSite } from './request-site'

// docs/api/access.md "Tokens": sessions for a browser, the refresh token in a cookie script cannot read.
export const SESSION_PATH = '/api/auth/session'
export const REFRESH_COOKIE = 'intake_refresh'

const SessionSchema = Named(
  'BrowserSession',
  t.Object({
    accessToken: Text(ACCESS_TOKEN),
    tokenType: t.Literal('Bearer'),
    expiresIn: Int32({ minimum: 1, maximum: 86_400 }, { description: 'Seconds until the access token expires' }),
  }),
)

const JSON_ONLY =
  'Sent as application/json only: a form posted from another site cannot set that type, and a script of another site cannot without this service allowing it (no CORS).'

/** The refresh token of the cookie; none when absent or longer than any this service issues (never looked up). */
function refreshTokenIn(request: Request): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=')
    const token = value.join('=')
    if (name === REFRESH_COOKIE) return token && token.length <= REFRESH_TOKEN.maxLength ? token : undefined
  }
  return undefined
}

/** The cookie of a browser session's refresh token (Secure when PUBLIC_BASE_URL is https); an empty one clears it. */
export function sessionCookie(publicBaseUrl: string): (token: string, maxAgeSeconds: number) => string {
  const secure = publicBaseUrl.startsWith('https:') ? '; Secure' : ''
  return (token, maxAge) => `${REFRESH_COOKIE}=${token}; Path=${SESSION_PATH}; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`
}

/**
 * `POST /api/auth/session` logs in like `/api/auth/login`, `…/refresh` rotates and `…/logout` ends the session,
 * but the refresh token never reaches script: it travels in an httpOnly, SameSite=Strict cookie sent to these
 * paths only (Secure when PUBLIC_BASE_URL is https). The staff console uses them.
 */
export function sessionCookieRoutes(
  useCases: UseCases['auth'],
  authentication: AuthenticationPlugin,
  rateLimits: RateLimits,
  requestSite: RequestSite,
  trustProxy: boolean,
  publicBaseUrl: string,
) {
  const { login, refresh, logout } = useCases
  const cookie = sessionCookie(publicBaseUrl)
  const answer = (pair: TokenPair, set: { headers: Record<string, unknown> }) => {
    set.headers['set-cookie'] = cookie(pair.refreshToken, REFRESH_TOKEN_LIFETIME_MS / 1000)
    set.headers['cache-control'] = 'no-store'
    return { accessToken: pair.accessToken, tokenType: pair.tokenType, expiresIn: pair.expiresIn }
  }
  return new Elysia({ name: 'session-cookie', prefix: SESSION_PATH, detail: { tags: ['Authentication'] } })
    .use(authentication)
    .use(rateLimits)
    .use(requestSite)
    .onBeforeHandle({ as: 'local' }, ({ request }) => {
      const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase()
      if (type !== 'application/json')
        return problemResponse('unsupported_media_type', 'Send the request with Content-Type: application/json')
    })
    .post(
      '',
      async ({ body, request, server, set }) => answer(await login.execute(body, clientAddress(request, server, trustProxy)), set),
      {
        rateLimit: 'auth',
        ownSiteOnly: true,
        body: LoginBody,
        response: rateLimited({ 200: SessionSchema, ...problems(400, 401, 403, 413, 415) }),
        detail: {
          operationId: 'startBrowserSession',
          summary: 'Log in; the refresh token is set as a cookie',
          description: `Anonymous; limited per client address and throttled per email, as /api/auth/login. Answers the access token; the refresh token is set in the httpOnly cookie \`${REFRESH_COOKIE}\` (SameSite=Strict, Path=${SESSION_PATH}). ${JSON_ONLY} ${OWN_SITE}`,
          security: [],
        },
      },
    )
    .post(
      '/refresh',
      async ({ request, server, set }) => {
        const token = refreshTokenIn(request)
        if (!token) throw new UnauthorizedError('No session cookie: log in again')
        return answer(await refresh.execute(token, clientAddress(request, server, trustProxy)), set)
      },
      {
        rateLimit: 'auth',
        ownSiteOnly: true,
        response: rateLimited({ 200: SessionSchema, ...problems(401, 403, 415) }),
        detail: {
          operationId: 'refreshBrowserSession',
          summary: 'Trade the session cookie for a new access token (rotation)',
          description: `Anonymous; limited per client address. Reads the refresh token from the cookie \`${REFRESH_COOKIE}\`, uses it up and sets its successor. 401 when there is none or it is no longer valid. ${JSON_ONLY} ${OWN_SITE}`,
          security: [],
        },
      },
    )
    .post(
      '/logout',
      async ({ actor, request, set }) => {
        const token = refreshTokenIn(request)
        if (token) await logout.execute(actor, token)
        set.headers['set-cookie'] = cookie('', 0)
        set.status = 204
      },
      {
        auth: true,
        response: { 204: t.Void(), ...problems(401, 415) },
        detail: {
          operationId: 'endBrowserSession',
          summary: 'End the session of the cookie and clear it',
          description: `Every role. Revokes the session of the refresh token in the cookie \`${REFRESH_COOKIE}\` when it is the caller's, and clears the cookie; 204 either way. ${JSON_ONLY}`,
        },
      },
    )
}
