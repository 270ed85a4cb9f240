import { Elysia } from 'elysia'
import type { UseCases } from '../../../application/use-cases'
import { ConflictError, InvalidError } from '../../../domain/errors'
import type { RateLimits } from '../rate-limits'
import type { RequestSite } from '../request-site'
import { refusedAccountPost, type AccountFormPost } from './form-post'
import { escapeHtml, html, messagePage, page, type HtmlSet } from './layout'
import { chooseLanguage, STRINGS } from './strings'

const PATH = '/confirm-email'

type Query = Record<string, string | undefined>

/**
 * `/confirm-email?token=…`, the page an email change's link opens (docs/api/pages.md "Pages"). Opening it changes
 * nothing (mail scanners open links): its button posts the token, and the change takes effect then.
 */
export function confirmEmailPage(useCases: UseCases['members'], rateLimits: RateLimits, requestSite: RequestSite) {
  const languageOf = (query: Query, request: Request) => {
    const { language, explicit } = chooseLanguage(query.lang, request.headers.get('accept-language'))
    const s = STRINGS[language]
    return { lang: language, s, title: s.confirmEmailTitle, action: explicit ? `${PATH}?lang=${language}` : PATH }
  }
  return new Elysia({ name: 'confirm-email-page', detail: { hide: true } })
    .use(rateLimits)
    .use(requestSite)
    .get(PATH, ({ query, request, set }: { query: Query; request: Request; set: HtmlSet }) => {
      const { lang, s, title, action } = languageOf(query, request)
      if (!query.token) return html(messagePage(lang, title, s.missingToken, 'alert'), set, 400)
      const token = query.token.slice(0, 512)
      const form = `<p class="hint">${escapeHtml(s.confirmEmailHint)}</p>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">${escapeHtml(s.confirmEmailSubmit)}</button>
</form>`
      return html(page(lang, title, form, { switchPath: `${PATH}?token=${encodeURIComponent(token)}` }), set)
    })
    .post(PATH, async (post: AccountFormPost) => {
      const { body, query, request, set } = post
      const { lang, s, title } = languageOf(query, request)
      const refused = refusedAccountPost(post, lang, s, title)
      if (refused !== undefined) return refused
      const form = (body ?? {}) as Record<string, unknown>
      const token = typeof form.token === 'string' ? form.token.slice(0, 512) : ''
      if (!token) return html(messagePage(lang, title, s.missingToken, 'alert'), set, 400)
      try {
        const { email } = await useCases.confirmEmail.execute({ token })
        const done = `<p role="status">${escapeHtml(s.confirmEmailDone(email))}</p>\n<p><a href="/">${escapeHtml(s.logIn)}</a></p>`
        return html(page(lang, title, done), set)
      } catch (error) {
        if (error instanceof InvalidError) return html(messagePage(lang, title, s.confirmEmailUnknown, 'alert'), set, 400)
        if (error instanceof ConflictError) return html(messagePage(lang, title, s.confirmEmailTaken, 'alert'), set, 409)
        throw error
      }
    })
}
