import { Elysia } from 'elysia'
import type { UseCases } from '../../../application/use-cases'
import { InvalidError } from '../../../domain/errors'
import { PASSWORD } from '../../../domain/members/member'
import type { RateLimits } from '../rate-limits'
import { escapeHtml, page, PAGE_CONTENT_SECURITY_POLICY, STYLESHEET, STYLESHEET_PATH } from './layout'
import { STRINGS, type Strings } from './strings'

/** The two pages where a member chooses a password from an emailed link (docs/api.md "Pages"). */
const FORMS = {
  '/reset-password': { title: 'resetTitle', done: 'resetDone' },
  '/accept-invite': { title: 'inviteTitle', done: 'inviteDone' },
} as const satisfies Record<string, { title: keyof Strings; done: keyof Strings }>

type FormPath = keyof typeof FORMS

/**
 * docs/api.md "Pages": a form posted from another site is refused. Browsers send Sec-Fetch-Site; older ones
 * at least Origin, which must name this host. A request with neither is no browser's cross-site form.
 */
export function isSameOrigin(request: Request): boolean {
  const site = request.headers.get('sec-fetch-site')
  if (site) return site === 'same-origin'
  const origin = request.headers.get('origin')
  if (!origin) return true
  try {
    return new URL(origin).host === new URL(request.url).host
  } catch {
    return false
  }
}

function passwordForm(s: Strings, path: FormPath, token: string, error?: { token?: string; password?: string }): string {
  const passwordError = error?.password ? `<p class="error" id="password-error">${escapeHtml(error.password)}</p>` : ''
  return `${error?.token ? `<p class="error" role="alert">${escapeHtml(error.token)}</p>` : ''}
<form method="post" action="${path}">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<label for="password">${escapeHtml(s.passwordLabel)}</label>
<p class="hint" id="password-hint">${escapeHtml(s.passwordHint)}</p>
${passwordError}<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${PASSWORD.minLength}" maxlength="${PASSWORD.maxLength}"${error?.password ? ' aria-invalid="true"' : ''} aria-describedby="password-hint${error?.password ? ' password-error' : ''}">
<button type="submit">${escapeHtml(s.submit)}</button>
</form>`
}

type HtmlSet = { status?: number | string; headers: Record<string, string | number> }

function html(body: string, set: HtmlSet, status = 200) {
  set.status = status
  set.headers['content-type'] = 'text/html; charset=utf-8'
  set.headers['content-security-policy'] = PAGE_CONTENT_SECURITY_POLICY
  set.headers['referrer-policy'] = 'no-referrer'
  set.headers['cache-control'] = 'no-store'
  return body
}

export function passwordPages(useCases: UseCases['auth'], rateLimits: RateLimits) {
  const s = STRINGS.en
  const actions: Record<FormPath, (input: { token: string; password: string }) => Promise<unknown>> = {
    '/reset-password': (input) => useCases.resetPassword.execute(input),
    '/accept-invite': (input) => useCases.acceptInvite.execute(input),
  }
  const show = (path: FormPath) => ({ query, set }: { query: Record<string, string | undefined>; set: HtmlSet }) => {
    const title = s[FORMS[path].title]
    if (!query.token) return html(page('en', title, `<p class="error" role="alert">${escapeHtml(s.missingToken)}</p>`), set, 400)
    return html(page('en', title, passwordForm(s, path, query.token)), set)
  }
  const submit = (path: FormPath) => async ({ body, request, set }: { body: unknown; request: Request; set: HtmlSet }) => {
    const title = s[FORMS[path].title]
    if (!isSameOrigin(request)) return html(page('en', title, `<p class="error" role="alert">${escapeHtml(s.forbidden)}</p>`), set, 403)
    const form = (body ?? {}) as Record<string, unknown>
    const token = typeof form.token === 'string' ? form.token.slice(0, 512) : ''
    const password = typeof form.password === 'string' ? form.password : ''
    if (!token) return html(page('en', title, `<p class="error" role="alert">${escapeHtml(s.missingToken)}</p>`), set, 400)
    try {
      await actions[path]({ token, password })
    } catch (error) {
      if (!(error instanceof InvalidError)) throw error
      const onToken = error.errors.some((e) => e.path === '/token')
      return html(page('en', title, passwordForm(s, path, token, onToken ? { token: s.badToken } : { password: s.badPassword })), set, 400)
    }
    return html(page('en', title, `<p role="status">${escapeHtml(s[FORMS[path].done])}</p>`), set)
  }
  return new Elysia({ name: 'password-pages', detail: { hide: true } })
    .use(rateLimits)
    .get(STYLESHEET_PATH, ({ set }) => {
      set.headers['content-type'] = 'text/css; charset=utf-8'
      set.headers['cache-control'] = 'public, max-age=3600'
      return STYLESHEET
    })
    .get('/reset-password', show('/reset-password'))
    .post('/reset-password', submit('/reset-password'), { rateLimit: 'auth' })
    .get('/accept-invite', show('/accept-invite'))
    .post('/accept-invite', submit('/accept-invite'), { rateLimit: 'auth' })
}
