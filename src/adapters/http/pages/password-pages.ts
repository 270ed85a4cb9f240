import { Elysia } from 'elysia'
import { REFRESH_TOKEN_LIFETIME_MS } from '../../../application/auth/token-pair'
import type { UseCases } from '../../../application/use-cases'
import { InvalidError } from '../../../domain/errors'
import { PASSWORD } from '../../../domain/members/member'
import type { RateLimits } from '../rate-limits'
import type { RequestSite } from '../request-site'
import { sessionCookie } from '../session-cookie.routes'
import { escapeHtml, html, messagePage, page, STYLESHEET, STYLESHEET_PATH, type HtmlSet } from './layout'
import { refusedAccountPost, type AccountFormPost } from './form-post'
import { FORGOT_PASSWORD_PATH } from './forgot-password-page'
import { chooseLanguage, STRINGS, type Language, type Strings } from './strings'

/** The two pages where a member chooses a password from an emailed link (docs/api/pages.md "Pages"). */
const FORMS = {
  '/reset-password': { title: 'resetTitle' },
  '/accept-invite': { title: 'inviteTitle' },
} as const satisfies Record<string, { title: keyof Strings }>

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

export function passwordPages(useCases: UseCases['auth'], rateLimits: RateLimits, requestSite: RequestSite, publicBaseUrl: string) {
  const cookie = sessionCookie(publicBaseUrl)
  /** The page after the password is saved: a reset says so; an accepted invitation opens the console, logged in. */
  const done: Record<FormPath, (input: { token: string; password: string }, lang: Language, set: HtmlSet) => Promise<string>> = {
    '/reset-password': async (input, lang, set) => {
      await useCases.resetPassword.execute(input)
      const s = STRINGS[lang]
      return html(
        page(lang, s.resetTitle, `<p role="status">${escapeHtml(s.resetDone)}</p>\n<p><a href="/">${escapeHtml(s.logIn)}</a></p>`),
        set,
      )
    },
    '/accept-invite': async (input, lang, set) => {
      const pair = await useCases.acceptInvite.execute(input)
      set.headers['set-cookie'] = cookie(pair.refreshToken, REFRESH_TOKEN_LIFETIME_MS / 1000)
      set.headers.location = `/?lang=${lang}`
      return html('', set, 303)
    },
  }
  /** `?lang=` when given, else the invitation's language (the one its email was written in), else the browser's. */
  const languageOf = (path: FormPath, query: Query, request: Request, invited?: Language) => {
    const chosen = chooseLanguage(query.lang, request.headers.get('accept-language'))
    const { language, explicit } = chosen.explicit || !invited ? chosen : { language: invited, explicit: true }
    return {
      lang: language,
      s: STRINGS[language],
      title: STRINGS[language][FORMS[path].title],
      action: explicit ? `${path}?lang=${language}` : path,
    }
  }
  const show =
    (path: FormPath) =>
    async ({ query, request, set }: { query: Query; request: Request; set: HtmlSet }) => {
      if (path === '/accept-invite' && query.token) return showInvitation(query.token, query, request, set)
      const { lang, s, title, action } = languageOf(path, query, request)
      if (!query.token) return html(messagePage(lang, title, s.missingToken, 'alert'), set, 400)
      return html(page(lang, title, passwordForm(s, action, query.token)), set)
    }
  /** An invitation names its organization and the address it was sent to, in its language, or says it no longer works. */
  const showInvitation = async (token: string, query: Query, request: Request, set: HtmlSet) => {
    const invitation = await useCases.readInvitation.execute(token.slice(0, 512))
    const { lang, s, title, action } = languageOf('/accept-invite', query, request, invitation?.language)
    if (!invitation) return html(messagePage(lang, title, s.inviteUnknown, 'alert'), set, 400)
    const intro = `<p>${escapeHtml(s.inviteFor(invitation.organizationName, invitation.email))}</p>\n`
    return html(
      page(lang, title, intro + passwordForm(s, action, token), {
        banner: invitation.organizationName,
        switchPath: `/accept-invite?token=${encodeURIComponent(token)}`,
      }),
      set,
    )
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
      return await done[path]({ token, password }, lang, set)
    } catch (error) {
      if (!(error instanceof InvalidError)) throw error
      const onToken = error.errors.some((e) => e.path === '/token')
      return html(
        page(lang, title, passwordForm(s, action, token, onToken ? { token: s.badToken } : { password: s.badPassword })),
        set,
        400,
      )
    }
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
