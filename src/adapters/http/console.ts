import { Elysia, NotFoundError } from 'elysia'
import { consoleBundle } from '../../../console/bundle' with { type: 'macro' }
import { escapeHtml } from './pages/layout'
import { chooseLanguage } from './pages/strings'

// docs/console.md: the staff console, a client of this API served at `/`.
export const CONSOLE_ASSETS = '/console/assets'

/** The console's script and styles come from this service only; it calls this service only; never framed. */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

const CONTENT_TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' }

/** Bundled when this file is transpiled or compiled into the binary (console/bundle.ts). */
const FILES = new Map(consoleBundle().map((file) => [file.name, file.text]))
const names = [...FILES.keys()]
const script = names.find((name) => name.endsWith('.js'))
const stylesheet = names.find((name) => name.endsWith('.css'))

/** The language is chosen as on the pages (`?lang=`, else Accept-Language) and handed to the script in `lang`. */
const indexHtml = (lang: string) => `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Intake</title>
<link rel="stylesheet" href="${CONSOLE_ASSETS}/${stylesheet}">
<script type="module" src="${CONSOLE_ASSETS}/${script}"></script>
</head>
<body>
<div id="console"></div>
<noscript>This console needs JavaScript.</noscript>
</body>
</html>
`

const securityHeaders = {
  'content-security-policy': CONSOLE_CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
}

/**
 * `GET /`: the console's page, never stored, so a new version's assets are fetched at once; the assets are
 * named by their content's hash and kept by browsers for a year.
 */
export function consoleApp() {
  return new Elysia({ name: 'console', detail: { hide: true } })
    .get('/', ({ query, request }) => {
      const { language } = chooseLanguage(query.lang, request.headers.get('accept-language'))
      return new Response(indexHtml(language), {
        headers: { ...securityHeaders, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', vary: 'Accept-Language' },
      })
    })
    .get(`${CONSOLE_ASSETS}/:name`, ({ params }) => {
      const text = FILES.get(params.name)
      const type = CONTENT_TYPES[params.name.split('.').pop()!]
      if (text === undefined || !type) throw new NotFoundError()
      return new Response(text, {
        headers: { ...securityHeaders, 'content-type': type, 'cache-control': 'public, max-age=31536000, immutable' },
      })
    })
}
