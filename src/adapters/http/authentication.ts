import { Elysia } from 'elysia'
import type { Authenticate } from '../../application/auth/authenticate'
import type { Actor } from '../../domain/auth/actor'
import { requestContext } from '../system/request-context'

/** The auth scheme name is case-insensitive (RFC 9110 §11.1). Whatever follows it is the token, checked as one. */
const BEARER = /^Bearer +(.*)$/i

/** The bearer token of a request; none without an Authorization header, or with another scheme. */
export function bearerTokenOf(request: Request): string | undefined {
  return BEARER.exec(request.headers.get('authorization') ?? '')?.[1]?.trim()
}

/**
 * `auth: true` on a route: the bearer token becomes `actor`, or the request ends with 401. It runs in
 * `transform`, before the body is validated, so an anonymous caller learns nothing about the route's
 * schema. Permissions are checked by the use cases against the one permission table.
 */
export function authentication(authenticate: Authenticate) {
  const actors = new WeakMap<Request, Actor>()
  return new Elysia({ name: 'authentication' }).macro({
    auth: {
      async transform({ request }) {
        // No Authorization header, or another scheme, is a missing token; `Bearer <anything>` is a token to check.
        const actor = await authenticate.execute(bearerTokenOf(request))
        actors.set(request, actor)
        // Every later log line of this request says who made it.
        const context = requestContext.getStore()
        if (context) context.memberId = actor.memberId
      },
      resolve: ({ request }) => ({ actor: actors.get(request)! }),
      detail: { security: [{ bearer: [] }] },
    },
  })
}

export type AuthenticationPlugin = ReturnType<typeof authentication>
