import { AsyncLocalStorage } from 'node:async_hooks'
import type { CurrentRequest } from '../../application/ports/current-request'

/** Who and what a log line belongs to: set when a request arrives, read by every line it causes. */
export interface RequestContext {
  requestId: string
  /** The route template that took the request (`/api/needs/:id`), once routed. */
  route?: string
  memberId?: string
}

export const requestContext = new AsyncLocalStorage<RequestContext>()

/** The request id of the running request, for the audit trail. */
export const currentRequest: CurrentRequest = { id: () => requestContext.getStore()?.requestId }
