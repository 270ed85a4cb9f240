import type { Server } from 'bun'
import type { CountRequest } from '../rate-limits'
import type { ForeignOriginOf } from '../request-site'
import { html, messagePage, tooManyRequestsPage, type HtmlSet } from './layout'
import type { Language, Strings } from './strings'

/** What the handler of an account page's form (password, forgotten password) is given. */
export interface AccountFormPost {
  body: unknown
  query: Record<string, string | undefined>
  request: Request
  server: Server<unknown> | null
  set: HtmlSet
  countRequest: CountRequest
  foreignOriginOf: ForeignOriginOf
}

/**
 * The page that refuses an account form's post before anything of it is read: past the auth limit (429)
 * or made by another site's page (403). Undefined when the post may go on.
 */
export function refusedAccountPost(post: AccountFormPost, lang: Language, s: Strings, title: string): string | undefined {
  const use = post.countRequest('auth', post.request, post.server, post.set)
  if (use.exceeded) return tooManyRequestsPage(lang, use.resetSeconds, post.set)
  if (post.foreignOriginOf(post.request) !== undefined) return html(messagePage(lang, title, s.forbidden, 'alert'), post.set, 403)
  return undefined
}
