import { textProblem, type ListRule, type TextRule } from './fields'

/**
 * A web origin as a browser sends it in `Origin` (scheme, host, port): what an organization lists to let
 * another site take part (docs/api/organization.md "Organization settings"). Only https: a page served in clear could be
 * anyone's. The pattern is the coarse shape; `originProblem` also asks that it be the exact form a browser sends.
 */
export const ORIGIN = { pattern: '^https://[^/?#@\\s]+$', maxLength: 300 } as const satisfies TextRule
export const ORIGIN_MEANING = 'an origin like https://app.example.org (https, lower case, no path, no default port)'
/** Each list of origins an organization keeps is short: a few apps and partner sites, not a directory. */
export const ORIGIN_LIST = { maxItems: 20, uniqueItems: true } as const satisfies ListRule

/** The origin of a URL as browsers write it, or undefined when the text is not a URL with one. */
export function originOf(url: string): string | undefined {
  try {
    const { origin } = new URL(url)
    return origin === 'null' ? undefined : origin
  } catch {
    return undefined
  }
}

/** What is wrong with `value` as an origin to list, or undefined. */
export function originProblem(value: unknown): string | undefined {
  return textProblem(value, ORIGIN, ORIGIN_MEANING) ?? (originOf(value as string) === value ? undefined : `must be ${ORIGIN_MEANING}`)
}
