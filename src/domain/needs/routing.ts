import type { Partner } from '../partners/partner'
import { routingEquivalents } from './routing-words'

/**
 * Public intake routing (docs/api/needs.md "Public intake"): the first non-archived partner, in the given order, one
 * of whose keywords is a word of the description, or a translation of one (`routingEquivalents`: English and
 * Spanish); a keyword of several words matches when all of them do. Otherwise the default partner.
 */
export function routeByKeywords(description: string, partners: readonly Partner[]): Partner | undefined {
  const words = new Set(wordsOf(description))
  const open = partners.filter((p) => !p.isArchived)
  const matches = (keyword: string) => {
    const keywordWords = wordsOf(keyword)
    return keywordWords.length > 0 && keywordWords.every((w) => routingEquivalents(w).some((equivalent) => words.has(equivalent)))
  }
  return open.find((p) => (p.keywords ?? []).some(matches)) ?? open.find((p) => p.isDefault)
}

/** Lower-cased, accent-free words: "Café rent" → ["cafe", "rent"]. */
function wordsOf(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
}
