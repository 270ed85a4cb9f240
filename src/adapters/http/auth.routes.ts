import { Elysia, t } from 'elysia'
import type { UseCases } from '../../application/use-cases'
import type { AuthenticationPlugin } from './authentication'
import { clientAddress } from './client-address'
import { Body, Int32, Named, problems, Text } from './common.schemas'
import { EMAIL } from '../../domain/shared/fields'
import { AcceptInviteBody } from './members.schemas'
import { rateLimited, type RateLimits } from './rate-limits'
import type { RequestSite } from './request-site'

// docs/api/access.md "Tokens"
/** A refresh token is 43 characters (256 random bits); one sent may be up to this long. */
export const REFRESH_TOKEN = { minLength: 1, maxLength: 512 } as const
/** An access token's claims are of fixed size (three UUIDs, two times, a jti): it is about 340 characters. */
export const ACCESS_TOKEN = { maxLength: 1024 } as const

export const LoginBody = Body({
  email: t.String({ minLength: 1, maxLength: 254 }),
  password: t.String({ minLength: 1, maxLength: 1024 }),
  organizationSlug: t.Optional(t.String({ minLength: 1, maxLength: 63 })),
})

const TokenPairSchema = Named(
  'TokenPair',
  t.Object({
    accessToken: Text(ACCESS_TOKEN),
    refreshToken: Text(REFRESH_TOKEN),
    tokenType: t.Literal('Bearer'),
    expiresIn: Int32({ minimum: 1, maximum: 86_400 }, { description: 'Seconds until the access token expires' }),
  }),
)
const RefreshTokenBody = Named('RefreshRequest', Body({ refreshToken: t.String(REFRESH_TOKEN) }))

/** Said by every anonymous route here: a page on another site may not make a browser send it. */
export const OWN_SITE = 'A page on another site may not make a browser send it (403).'

export function authRoutes(
  useCases: UseCases['auth'],
  authentication: AuthenticationPlugin,
  rateLimits: RateLimits,
  requestSite: RequestSite,
  trustProxy: boolean,
) {
  const { login, refresh, logout, acceptInvite, requestPasswordReset, resetPassword } = useCases

  return new Elysia({ name: 'auth', prefix: '/api/auth', detail: { tags: ['Authentication'] } })
    .use(authentication)
    .use(rateLimits)
    .use(requestSite)
    .post('/login', ({ body, request, server }) => login.execute(body, clientAddress(request, server, trustProxy)), {
      rateLimit: 'auth',
      ownSiteOnly: true,
      body: LoginBody,
      response: rateLimited({ 200: TokenPairSchema, ...problems(400, 401, 403, 413, 415) }),
      detail: {
        operationId: 'login',
        summary: 'Log in with email and password',
        description: `Anonymous; limited per client address and throttled per email. Answers an access token and a refresh token. When several organizations share the email, \`organizationSlug\` chooses. ${OWN_SITE}`,
        security: [],
      },
    })
    .post('/refresh', ({ body, request, server }) => refresh.execute(body.refreshToken, clientAddress(request, server, trustProxy)), {
      rateLimit: 'auth',
      ownSiteOnly: true,
      body: RefreshTokenBody,
      response: rateLimited({ 200: TokenPairSchema, ...problems(400, 401, 403, 413, 415) }),
      detail: {
        operationId: 'refreshSession',
        summary: 'Trade a refresh token for a new pair (rotation)',
        description: `Anonymous; limited per client address. The refresh token is used up: presenting it again revokes its whole session (but within 30 s, from the same client address, while its successor is unused: a renewal whose answer was lost; docs/api/access.md "Tokens"). ${OWN_SITE}`,
        security: [],
      },
    })
    .post('/accept-invite', ({ body }) => acceptInvite.execute(body), {
      rateLimit: 'auth',
      ownSiteOnly: true,
      body: AcceptInviteBody,
      response: rateLimited({ 200: TokenPairSchema, ...problems(400, 403, 413, 415) }),
      detail: {
        operationId: 'acceptInvite',
        summary: 'Set a password with an invitation token; answers tokens',
        description: `Anonymous; limited per client address. Confirms the invited member, sets the password (at least 12 characters) and starts a session. ${OWN_SITE}`,
        security: [],
      },
    })
    .post(
      '/password-reset',
      async ({ body, set }) => {
        await requestPasswordReset.execute(body)
        set.status = 202
        return { status: 'accepted' as const }
      },
      {
        rateLimit: 'auth',
        ownSiteOnly: true,
        body: Body({ email: t.String(EMAIL) }),
        response: rateLimited({ 202: t.Object({ status: t.Literal('accepted') }), ...problems(400, 403, 413, 415) }),
        detail: {
          operationId: 'requestPasswordReset',
          summary: 'Ask for a link to choose a new password',
          description:
            'Anonymous; limited per client address. Always 202, whether or not the email is known: each confirmed member with it gets an email with a link to PUBLIC_BASE_URL/reset-password, valid for an hour, usable once. Nobody chooses where the link leads: `appUrl`, which this route once took, is an unknown property like any other (400). ' +
            OWN_SITE,
          security: [],
        },
      },
    )
    .post('/reset-password', ({ body }) => resetPassword.execute(body), {
      rateLimit: 'auth',
      ownSiteOnly: true,
      body: AcceptInviteBody,
      response: rateLimited({ 200: TokenPairSchema, ...problems(400, 403, 413, 415) }),
      detail: {
        operationId: 'resetPassword',
        summary: 'Set a new password with the token of a reset link; answers tokens',
        description: `Anonymous; limited per client address. The token works once and for an hour; the member's other sessions end, and a new one starts. ${OWN_SITE}`,
        security: [],
      },
    })
    .post(
      '/logout',
      async ({ actor, body, set }) => {
        await logout.execute(actor, body.refreshToken)
        set.status = 204
      },
      {
        auth: true,
        body: RefreshTokenBody,
        response: { 204: t.Void(), ...problems(400, 401, 413, 415) },
        detail: {
          operationId: 'logout',
          summary: 'End the session of a refresh token',
          description: "Every role. Revokes the session of the given refresh token when it is the caller's; answers 204 either way.",
        },
      },
    )
}
