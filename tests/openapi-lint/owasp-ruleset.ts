import { Document, Ruleset, Spectral } from '@stoplight/spectral-core'
import owasp from '@stoplight/spectral-owasp-ruleset'
import { oas } from '@stoplight/spectral-rulesets'
import * as Parsers from '@stoplight/spectral-parsers'
import { join } from 'node:path'

/**
 * Spectral's OpenAPI ruleset (spectral:oas) and its OWASP API Security ruleset, which the served OpenAPI
 * document passes with no error, and the rules this service leaves on purpose, each with its reason (docs/api/openapi.md "OpenAPI lint").
 */

/** The anonymous routes that change something: rate limited per client address instead of authenticated. */
const RATE_LIMITED: ReadonlyArray<readonly [path: string, method: string]> = [
  ['/api/auth/login', 'post'],
  ['/api/auth/refresh', 'post'],
  ['/api/auth/session', 'post'],
  ['/api/auth/session/refresh', 'post'],
  ['/api/auth/accept-invite', 'post'],
  ['/api/auth/password-reset', 'post'],
  ['/api/auth/reset-password', 'post'],
  ['/api/needs/public', 'post'],
  // Partners' instances: a pairing code's secret, or a message's Ed25519 signature (docs/referrals.md).
  ['/federation/v1/pairings', 'post'],
  ['/federation/v1/messages', 'post'],
]

/** The CSV exports: their answer is a file streamed record by record, whose length grows with the records. */
const EXPORTS: ReadonlyArray<readonly [path: string, method: string]> = [
  ['/api/needs/export', 'get'],
  ['/api/constituents/export', 'get'],
  ['/api/reports/served/export', 'get'],
  // The live stream's answer: events for as long as the stream is open.
  ['/api/stream', 'get'],
]

/** Where the document is said to be, beside this file: overrides name their operations by JSON pointer into it. */
const DOCUMENT_SOURCE = join(import.meta.dir, 'openapi.json')
const operationIn = (path: string, method: string) => `openapi.json#/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method}`

const RULESET = new Ruleset(
  {
    extends: [oas, owasp],
    rules: {
      // Only the anonymous routes are rate limited (docs/api/access.md "Rate limits"): the others send no RateLimit fields to document.
      'owasp:api4:2023-rate-limit': 'off',
      // The service sends no CORS headers: browsers keep other sites from reading its answers, and none is promised.
      'owasp:api8:2023-define-cors-origin': 'off',
    },
    overrides: [
      ...RATE_LIMITED.map(([path, method]) => ({
        files: [operationIn(path, method)],
        rules: {
          // These routes do send the RateLimit fields: the rule holds for them.
          'owasp:api4:2023-rate-limit': 'error',
          // Logging in, redeeming a link and asking for help cannot need a token; they are rate limited instead.
          'owasp:api2:2023-write-restricted': 'off',
        },
      })),
      ...EXPORTS.map(([path, method]) => ({
        files: [operationIn(path, method)],
        // The file (or stream) has no honest maxLength: it holds every record the filters select (every event while open), each bounded by its fields' rules.
        rules: { 'owasp:api4:2023-string-limit': 'off' },
      })),
    ],
  },
  { source: import.meta.path },
)

export interface LintProblem {
  rule: string
  path: string
  message: string
}

/** The errors (not warnings) of the document under the ruleset above. */
export async function owaspErrors(document: unknown): Promise<LintProblem[]> {
  const spectral = new Spectral()
  spectral.setRuleset(RULESET)
  const results = await spectral.run(new Document(JSON.stringify(document, null, 2), Parsers.Json, DOCUMENT_SOURCE))
  return results.filter((r) => r.severity === 0).map((r) => ({ rule: String(r.code), path: r.path.join('/'), message: r.message }))
}
