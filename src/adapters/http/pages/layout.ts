import { LANGUAGES, STRINGS, type Language } from './strings'

/** The pages' one stylesheet, served by the service at STYLESHEET_PATH: readable on a phone, no outside URL. */
export const STYLESHEET_PATH = '/assets/pages.css'
export const STYLESHEET = `*{box-sizing:border-box}
body{margin:0;font:1.0625rem/1.5 system-ui,sans-serif;color:#1a1a1a;background:#f6f6f4}
main{max-width:34rem;margin:0 auto;padding:1.5rem 1rem}
h1{font-size:1.5rem;line-height:1.25}
nav{text-align:right;font-size:.95rem}
a{color:#0b5394}
.organization{margin:0;font-weight:600;color:#4a4a4a}
label,legend{display:block;font-weight:600;margin-top:1rem}
fieldset{border:0;margin:1.5rem 0 0;padding:0}
legend{padding:0}
.hint{margin:.25rem 0;color:#4a4a4a;font-size:.95rem}
label .hint,legend .hint{font-weight:400}
.error{margin:.25rem 0;color:#a00000;font-weight:600}
.reference{font-size:1.5rem;font-weight:700;letter-spacing:.05em}
.hp{display:none}
input,textarea{display:block;width:100%;font:inherit;padding:.6rem;border:2px solid #555;border-radius:4px;background:#fff}
textarea{min-height:7rem}
[aria-invalid=true]{border-color:#a00000}
button{margin-top:1.25rem;font:inherit;font-weight:600;padding:.7rem 1.2rem;border:0;border-radius:4px;background:#0b5394;color:#fff;cursor:pointer}
:focus-visible{outline:3px solid #e69500;outline-offset:2px}
`

/**
 * Styles from the service only, no script at all, forms posting to the service only; framed only by the sites
 * given (the intake form's, its organization's `formOrigins`), else never.
 */
export function pageContentSecurityPolicy(frameAncestors: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "style-src 'self'",
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'"}`,
  ].join('; ')
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Every text put in a page goes through this: names, errors, anything a person or the database wrote. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!)
}

export interface PageOptions {
  /** A line above the title (the organization's name). */
  banner?: string
  /** The page's own path, with its query if it has one: when given, a link to it in each other language (`lang=`). */
  switchPath?: string
}

function languageSwitch(language: Language, path: string): string {
  const links = LANGUAGES.filter((other) => other !== language).map(
    (other) =>
      `<a href="${escapeHtml(`${path}${path.includes('?') ? '&' : '?'}lang=${other}`)}" lang="${other}" hreflang="${other}">${escapeHtml(STRINGS[other].languageName)}</a>`,
  )
  return `<nav aria-label="${escapeHtml(STRINGS[language].languageSwitch)}">${links.join(' ')}</nav>\n`
}

/** A whole page around `body` (already escaped HTML). */
export function page(lang: Language, title: string, body: string, options: PageOptions = {}): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.banner ? `${title} · ${options.banner}` : title)}</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
</head>
<body>
<main>
${options.switchPath ? languageSwitch(lang, options.switchPath) : ''}${options.banner ? `<p class="organization">${escapeHtml(options.banner)}</p>\n` : ''}<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`
}

/** A page that only says one thing: a refusal or an outcome. */
export function messagePage(lang: Language, title: string, message: string, role: 'alert' | 'status', options: PageOptions = {}): string {
  return page(lang, title, `<p${role === 'alert' ? ' class="error" role="alert"' : ' role="status"'}>${escapeHtml(message)}</p>`, options)
}

export type HtmlSet = { status?: number | string; headers: Record<string, string | number> }

/** Answers `body` as a page, with the pages' headers (docs/api/pages.md "Pages"); `frameAncestors`: the sites that may frame it. */
export function html(body: string, set: HtmlSet, status = 200, frameAncestors: readonly string[] = []): string {
  set.status = status
  set.headers['content-type'] = 'text/html; charset=utf-8'
  set.headers['content-security-policy'] = pageContentSecurityPolicy(frameAncestors)
  set.headers['referrer-policy'] = 'no-referrer'
  set.headers['cache-control'] = 'no-store'
  return body
}

/** The HTML 429 of every page's form, with Retry-After already set by the rate limit. */
export function tooManyRequestsPage(lang: Language, resetSeconds: number, set: HtmlSet): string {
  const s = STRINGS[lang]
  return html(messagePage(lang, s.tooManyTitle, s.tooMany(resetSeconds), 'alert'), set, 429)
}
