import { openapi } from '@elysiajs/openapi'
import { ScalarRender } from '@elysiajs/openapi/scalar'
import { Elysia } from 'elysia'
import scalarScript from '../../../vendor/scalar-api-reference/standalone.js' with { type: 'file' }

const SCRIPT_PATH = '/api/docs/scalar.js'

/**
 * The browser itself refuses anything from outside: scripts only from here (the page's one inline script
 * element is an empty carrier of the configuration, never run), requests only to this service.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/**
 * `GET /api/docs`, the interactive reference, and `GET /api/openapi.json`, generated from the schemas that
 * validate requests. The page loads nothing from outside: its script is a pinned copy served from here
 * (inside the binary once compiled), and the reference's fonts, telemetry, AI agent and MCP offer are off.
 */
export function apiDocs(version: string) {
  const info = {
    title: 'Intake and case-management service',
    version,
    description: 'Needs, constituents, partners and members of community assistance organizations. Errors are application/problem+json.',
  }
  const page = ScalarRender(info, {
    // Relative to the page: /api/docs resolves it to /api/openapi.json.
    url: '/api/openapi.json',
    cdn: SCRIPT_PATH,
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: 'never',
  })
  return new Elysia({ name: 'api-docs' })
    .use(
      openapi({
        provider: null,
        specPath: '/api/openapi.json',
        documentation: { info, components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } } },
      }),
    )
    .get('/api/docs', () => new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CONTENT_SECURITY_POLICY } }), {
      detail: { hide: true },
    })
    .get(SCRIPT_PATH, () => new Response(Bun.file(scalarScript), { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' } }), {
      detail: { hide: true },
    })
}
