import { openapi } from '@elysiajs/openapi'
import { Elysia } from 'elysia'
import swaggerUiBundle from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' }
import swaggerUiCss from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' }

const ASSETS = '/api/docs/assets'

/** The browser itself refuses anything from outside: scripts, styles and requests from this service only. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** Starts the reference on the document; `validatorUrl: null` keeps it from sending the document to swagger.io. */
const INIT = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#reference', deepLinking: true, validatorUrl: null })\n`

const page = (title: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="${ASSETS}/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="${ASSETS}/swagger-ui-bundle.js"></script>
<script src="${ASSETS}/init.js"></script>
</body>
</html>
`

const asset = (body: Blob | string, contentType: string) =>
  new Response(body, { headers: { 'content-type': contentType, 'cache-control': 'public, max-age=86400' } })

/**
 * `GET /api/docs`, the interactive reference, and `GET /api/openapi.json`, generated from the schemas that
 * validate requests. The page is Swagger UI from the pinned `swagger-ui-dist` package, served from here
 * (inside the binary once compiled): it loads nothing from outside.
 */
export function apiDocs(version: string) {
  const info = {
    title: 'Intake and case-management service',
    version,
    description: 'Needs, constituents, partners and members of community assistance organizations. Errors are application/problem+json.',
  }
  const html = page(info.title)
  return new Elysia({ name: 'api-docs' })
    .use(
      openapi({
        provider: null,
        specPath: '/api/openapi.json',
        documentation: { info, components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } } },
      }),
    )
    .get('/api/docs', () => new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CONTENT_SECURITY_POLICY } }), {
      detail: { hide: true },
    })
    .get(`${ASSETS}/swagger-ui-bundle.js`, () => asset(Bun.file(swaggerUiBundle), 'text/javascript; charset=utf-8'), { detail: { hide: true } })
    .get(`${ASSETS}/swagger-ui.css`, () => asset(Bun.file(swaggerUiCss), 'text/css; charset=utf-8'), { detail: { hide: true } })
    .get(`${ASSETS}/init.js`, () => asset(INIT, 'text/javascript; charset=utf-8'), { detail: { hide: true } })
}
