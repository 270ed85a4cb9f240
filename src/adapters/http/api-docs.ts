import { openapi } from '@elysiajs/openapi'
import { Elysia } from 'elysia'
import scalarScript from '../../../vendor/scalar-api-reference/standalone.js' with { type: 'file' }

const SCRIPT_PATH = '/api/docs/scalar.js'

/**
 * `GET /api/docs`, the interactive reference, and `GET /api/openapi.json`, generated from the schemas that
 * validate requests. The page loads nothing from outside: its script is a pinned copy served from here
 * (inside the binary once compiled), and the reference's fonts, telemetry, AI agent and MCP offer are off.
 */
export function apiDocs(version: string) {
  return new Elysia({ name: 'api-docs' })
    .use(
      openapi({
        path: '/api/docs',
        specPath: '/api/openapi.json',
        scalar: {
          // The plugin's default is the spec path without its leading slash, which the page at /api/docs
          // resolves to /api/api/openapi.json.
          url: '/api/openapi.json',
          cdn: SCRIPT_PATH,
          withDefaultFonts: false,
          telemetry: false,
          agent: { disabled: true },
          mcp: { disabled: true },
          showDeveloperTools: 'never',
        },
        documentation: {
          info: {
            title: 'Intake and case-management service',
            version,
            description: 'Needs, constituents, partners and members of community assistance organizations. Errors are application/problem+json.',
          },
          components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
        },
      }),
    )
    .get(SCRIPT_PATH, () => new Response(Bun.file(scalarScript), { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' } }), {
      detail: { hide: true },
    })
}
