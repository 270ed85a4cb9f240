import { openapi } from '@elysiajs/openapi'
import { Elysia } from 'elysia'
import { documentForClients, type OpenApiDocument } from './openapi-document'
import swaggerUiBundle from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' }
import swaggerUiCss from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' }

const ASSETS = '/api/docs/assets'
const SPEC_PATH = '/api/openapi.json'

/** Every tag the routes use, described once. */
const TAGS = [
  { name: 'Authentication', description: 'Log in, refresh and end sessions, accept invitations' },
  { name: 'Needs', description: 'Requests for assistance: intake, status, notes, texts and history' },
  { name: 'Messages', description: 'Texts that came in on no need: list them, put them on a need, start one, reply' },
  { name: 'Partners', description: 'The organizations that take needs on' },
  { name: 'Services', description: 'What partners offer, and the taxonomy terms that describe it: the directory of services (HSDS 3.0)' },
  {
    name: 'Directory (HSDS)',
    description:
      "An organization's published directory of services, anonymous and read-only, in HSDS 3.0's own shape: its pages are HSDS's, the exception to this API's list convention",
  },
  { name: 'Constituents', description: 'The people served, their households and possible duplicates' },
  { name: 'Members', description: 'Staff accounts, invitations and the own profile' },
  { name: 'Organization', description: 'Organization and email settings' },
  { name: 'Audit', description: 'Who did what, and who read whose personal details' },
  { name: 'Reports', description: 'Figures of the work: needs opened, resolved, open and overdue' },
  { name: 'Webhooks', description: 'Callbacks of the SMS provider, checked by signature' },
  { name: 'Webhook endpoints', description: "The organization's receivers of signed events, and their deliveries" },
  { name: 'Referral partners', description: 'Organizations paired with this one, on this instance or another, and their pairing codes' },
  { name: 'Referrals', description: "Needs sent to a referral partner with the person's consent, and received from one" },
  { name: 'Federation', description: "What partners' instances call: pairing, and signed messages (Ed25519)" },
  { name: 'Events', description: "The organization's events as they happen, streamed to a member" },
  { name: 'Health', description: 'Liveness and readiness for load balancers and orchestrators' },
]

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
export function apiDocs(version: string, publicBaseUrl: string) {
  const info = {
    title: 'Intake and case-management service',
    version,
    description: 'Needs, constituents, partners and members of community assistance organizations. Errors are application/problem+json.',
  }
  const html = page(info.title)
  return new Elysia({ name: 'api-docs' })
    .onAfterHandle(({ request, response }) => {
      if (new URL(request.url).pathname === SPEC_PATH) return documentForClients(response as OpenApiDocument)
    })
    .use(
      openapi({
        provider: null,
        specPath: SPEC_PATH,
        documentation: {
          info,
          servers: [
            {
              url: publicBaseUrl,
              // Meant for clients outside (staff apps, intake forms, the SMS provider), whatever the environment.
              description: 'This deployment (PUBLIC_BASE_URL): local when it names this machine, else production or staging',
              'x-internal': false,
            } as { url: string; description: string },
          ],
          tags: TAGS,
          components: {
            securitySchemes: {
              bearer: {
                type: 'http',
                scheme: 'bearer',
                bearerFormat: 'JWT',
                description:
                  'The accessToken from POST /api/auth/login or /api/auth/refresh, valid for its expiresIn seconds. Following RFC8725 (JWT best current practices): ' +
                  'signed with HS256 only (the algorithm is pinned; "none" and any other alg are refused), expiry always checked, the signature compared in ' +
                  'constant time, and the member and session looked up on every request, so a logout, a revoked session or a changed role takes effect at once. ' +
                  'Treat the token as opaque: its claims are not part of the API.',
              },
              twilioSignature: {
                type: 'apiKey',
                in: 'header',
                name: 'X-Twilio-Signature',
                description:
                  "The SMS provider's webhooks only: Twilio's signature of PUBLIC_BASE_URL, the path, the query and the form parameters with the account's TWILIO_AUTH_TOKEN " +
                  '(HMAC-SHA1, base64). A request without a valid one is 403.',
              },
            },
          },
        },
      }),
    )
    .get(
      '/api/docs',
      () =>
        new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CONTENT_SECURITY_POLICY } }),
      {
        detail: { hide: true },
      },
    )
    .get(`${ASSETS}/swagger-ui-bundle.js`, () => asset(Bun.file(swaggerUiBundle), 'text/javascript; charset=utf-8'), {
      detail: { hide: true },
    })
    .get(`${ASSETS}/swagger-ui.css`, () => asset(Bun.file(swaggerUiCss), 'text/css; charset=utf-8'), { detail: { hide: true } })
    .get(`${ASSETS}/init.js`, () => asset(INIT, 'text/javascript; charset=utf-8'), { detail: { hide: true } })
}
