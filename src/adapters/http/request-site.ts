import { Elysia } from 'elysia'
import { ForbiddenError } from '../../domain/errors'
import { originOf } from '../../domain/shared/origin'

// docs/api/access.md "Requests from other sites"

/** The detail of a 403 for a browser request another site's page made. */
const FROM_ANOTHER_SITE =
  'A page on another site may not make a browser send this request: send it from the service’s own pages, or from a server'

/**
 * The origin of the other site whose page made a browser send `request` ('null' when the browser hid it), or
 * undefined for the service's own pages and for clients that are no browser. Browsers say where a request
 * comes from in Sec-Fetch-Site and, on a POST, Origin, and a page cannot forge either; older browsers send
 * only Origin. A request with neither (curl, a server) was made by no other site's page. The service's own
 * origin is PUBLIC_BASE_URL's, or the request's own host (the address the browser reached).
 */
function foreignOrigin(request: Request, publicOrigin: string | undefined): string | undefined {
  const site = request.headers.get('sec-fetch-site')
  if (site === 'same-origin' || site === 'none') return undefined
  const origin = request.headers.get('origin')
  if (site === null && (origin === null || origin === publicOrigin || isRequestHost(origin, request))) return undefined
  return origin ?? 'null'
}

/** Whether `origin` names the host the request was sent to ('null' and text that is no URL do not). */
function isRequestHost(origin: string, request: Request): boolean {
  try {
    return new URL(origin).host === new URL(request.url).host
  } catch {
    return false
  }
}

export type ForeignOriginOf = (request: Request) => string | undefined

/**
 * `ownSiteOnly: true` on an anonymous write: a request another site's page made is 403, before its body is
 * validated (after the rate limit counted it). The public intake, which partner sites may post, asks `foreignOriginOf` and lets the use case decide.
 */
export function requestSite(publicBaseUrl: string) {
  const publicOrigin = originOf(publicBaseUrl)
  const foreignOriginOf: ForeignOriginOf = (request) => foreignOrigin(request, publicOrigin)
  return new Elysia({ name: 'request-site' }).decorate('foreignOriginOf', foreignOriginOf).macro({
    ownSiteOnly: {
      transform({ request }) {
        if (foreignOriginOf(request) !== undefined) throw new ForbiddenError(FROM_ANOTHER_SITE)
      },
    },
  })
}

export type RequestSite = ReturnType<typeof requestSite>
