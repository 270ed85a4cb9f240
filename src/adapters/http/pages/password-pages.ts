import { Elysia } from 'elysia'
import type { UseCases } from '../../../application/use-cases'
import { InvalidError } from '../../../domain/errors'
import { PASSWORD } from '../../../domain/members/member'
import type { RateLimits } from '../rate-limits'
import type { RequestSite } from '../request-site'
import { escapeHtml, html, messagePage, page, STYLESHEET, STYLESHEET_PATH, type HtmlSet } from './layout'
import { refusedAccountPost, type AccountFormPost } from './form-post'
import { FORGOT_PASSWORD_PATH } from './forgot-password-page'
import { chooseLanguage, STRINGS, type Strings } from './strings'

/** The two pages where a member chooses a password from an emailed link (docs/api/pages.md "Pages"). */
const FORMS = {
  '/reset-password': { title: 'resetTitle', done: 'resetDone' },
  '/accept-invite': { title: 'inviteTitle', done: 'inviteDone' },
} as const satisfies Record<string, { title: keyof Strings; done: keyof Strings }>

type FormPath = keyof typeof FORMS

/** `action` keeps a language chosen by `?lang=`, so the answer to the form speaks it too. */
function passwordForm(s: Strings, action: string, token: string, error?: { token?: string; password?: string }): string {
  const passwordError = error?.password ? `<p class="error" id="password-error">${escapeHtml(error.password)}</p>` : ''
  // A reset link that no longer works: a new one is a form away.
  const newLink =
    error?.token && action.startsWith('/reset-password') ? ` <a href="${FORGOT_PASSWORD_PATH}">${escapeHtml(s.askNewLink)}</a>` : ''
  return `${error?.token ? `<p class="error" role="alert">${escapeHtml(error.token)}${newLink}</p>` : ''}
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<label for="password">${escapeHtml(s.passwordLabel)}</label>
<p class="hint" id="password-hint">${escapeHtml(s.passwordHint)}</p>
${passwordError}<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${PASSWORD.minLength}" maxlength="${PASSWORD.maxLength}"${error?.password ? ' aria-invalid="true"' : ''} aria-describedby="password-hint${error?.password ? ' password-error' : ''}">
<button type="submit">${escapeHtml(s.submit)}</button>
</form>`
}

type Query = Record<string, string | undefined>

export function passwordPages(useCases: UseCases['auth'], rateLimits: RateLimits, requestSite: RequestSite) {
  const actions: Record<FormPath, (input: { token: string; password: string }) => Promise<unknown>> = {
    '/reset-password': (input) => useCases.resetPassword.execute(input),
    '/accept-invite': (input) => useCases.acceptInvite.execute(input),
  }
  const languageOf = (path: FormPath, query: Query, request: Request) => {
    const { language, explicit } = chooseLanguage(query.lang, request.headers.get('accept-language'))
    return {
      lang: language,
      s: STRINGS[language],
      title: STRINGS[language][FORMS[path].title],
      action: explicit ? `${path}?lang=${language}` : path,
    }
  }
  const show =
    (path: FormPath) =>
    ({ query, request, set }: { query: Query; request: Request; set: HtmlSet }) => {
      const { lang, s, title, action } = languageOf(path, query, request)
      if (!query.token) return html(messagePage(lang, title, s.missingToken, 'alert'), set, 400)
      return html(page(lang, title, passwordForm(s, action, query.token)), set)
    }
  const submit = (path: FormPath) => async (post: AccountFormPost) => {
    const { body, query, request, set } = post
    const { lang, s, title, action } = languageOf(path, query, request)
    const refused = refusedAccountPost(post, lang, s, title)
    if (refused !== undefined) return refused
    const form = (body ?? {}) as Record<string, unknown>
    const token = typeof form.token === 'string' ? form.token.slice(0, 512) : ''
    const password = typeof form.password === 'string' ? form.password : ''
    if (!token) return html(messagePage(lang, title, s.missingToken, 'alert'), set, 400)
    try {
      await actions[path]({ token, password })
    } catch (error) {
      if (!(error instanceof InvalidError)) throw error
      const onToken = error.errors.some((e) => e.path === '/token')
      return html(
        page(lang, title, passwordForm(s, action, token, onToken ? { token: s.badToken } : { password: s.badPassword })),
        set,
        400,
      )
    }
    return html(
      page(lang, title, `<p role="status">${escapeHtml(s[FORMS[path].done])}</p>\n<p><a href="/">${escapeHtml(s.logIn)}</a></p>`),
      set,
    )
  }
  return new Elysia({ name: 'password-pages', detail: { hide: true } })
    .use(rateLimits)
    .use(requestSite)
    .get(STYLESHEET_PATH, ({ set }) => {
      set.headers['content-type'] = 'text/css; charset=utf-8'
      set.headers['cache-control'] = 'public, max-age=3600'
      return STYLESHEET
    })
    .get('/reset-password', show('/reset-password'))
    .post('/reset-password', submit('/reset-password'))
    .get('/accept-invite', show('/accept-invite'))
    .post('/accept-invite', submit('/accept-invite'))
}
