import { Elysia } from 'elysia'
import type { UseCases } from '../../../application/use-cases'
import { InvalidError } from '../../../domain/errors'
import { EMAIL } from '../../../domain/shared/fields'
import type { RateLimits } from '../rate-limits'
import type { RequestSite } from '../request-site'
import { escapeHtml, html, messagePage, page, type HtmlSet } from './layout'
import { refusedAccountPost, type AccountFormPost } from './form-post'
import { chooseLanguage, STRINGS, type Strings } from './strings'

export const FORGOT_PASSWORD_PATH = '/forgot-password'

type Query = Record<string, string | undefined>

function emailForm(s: Strings, action: string, email = '', invalid = false): string {
  const error = invalid ? `<p class="error" id="email-error">${escapeHtml(s.badEmail)}</p>` : ''
  return `<p class="hint" id="email-hint">${escapeHtml(s.forgotHint)}</p>
<form method="post" action="${escapeHtml(action)}">
<label for="email">${escapeHtml(s.emailLabel)}</label>
${error}<input id="email" name="email" type="email" autocomplete="email" required maxlength="${EMAIL.maxLength}" value="${escapeHtml(email)}"${invalid ? ' aria-invalid="true"' : ''} aria-describedby="email-hint${invalid ? ' email-error' : ''}">
<button type="submit">${escapeHtml(s.forgotSubmit)}</button>
</form>`
}

/**
 * `GET /forgot-password`: the page behind the console's "Forgot password?" and the reset page's "Ask for a new
 * link" (docs/api/pages.md "Pages"). It posts the reset request of `POST /api/auth/password-reset`, under the same
 * per-address limit, and answers the same for any address.
 */
export function forgotPasswordPage(useCases: UseCases['auth'], rateLimits: RateLimits, requestSite: RequestSite) {
  const languageOf = (query: Query, request: Request) => {
    const { language, explicit } = chooseLanguage(query.lang, request.headers.get('accept-language'))
    return { lang: language, s: STRINGS[language], action: explicit ? `${FORGOT_PASSWORD_PATH}?lang=${language}` : FORGOT_PASSWORD_PATH }
  }
  return new Elysia({ name: 'forgot-password-page', detail: { hide: true } })
    .use(rateLimits)
    .use(requestSite)
    .get(FORGOT_PASSWORD_PATH, ({ query, request, set }: { query: Query; request: Request; set: HtmlSet }) => {
      const { lang, s, action } = languageOf(query, request)
      return html(page(lang, s.forgotTitle, emailForm(s, action), { switchPath: FORGOT_PASSWORD_PATH }), set)
    })
    .post(FORGOT_PASSWORD_PATH, async (post: AccountFormPost) => {
      const { body, query, request, set } = post
      const { lang, s, action } = languageOf(query, request)
      const refused = refusedAccountPost(post, lang, s, s.forgotTitle)
      if (refused !== undefined) return refused
      const form = (body ?? {}) as Record<string, unknown>
      const email = typeof form.email === 'string' ? form.email.slice(0, EMAIL.maxLength + 1) : ''
      try {
        await useCases.requestPasswordReset.execute({ email })
      } catch (error) {
        if (!(error instanceof InvalidError)) throw error
        return html(page(lang, s.forgotTitle, emailForm(s, action, email, true)), set, 400)
      }
      return html(messagePage(lang, s.forgotTitle, s.forgotDone, 'status'), set)
    })
}
