import { eq, type AnyColumn, type SQL } from 'drizzle-orm'
import type { NeedSearch } from '../../../domain/needs/search'

// What need search's SQL (sql-need-search.ts) asks of a search and of its words.

/** The search's longest word: the fewest entries of the index begin it. */
export function longestOf(search: NeedSearch): string {
  return search.words.reduce((longest, w) => (w.length > longest.length ? w : longest))
}

/** Whether the reader finds needs by the name of their person on file (`NeedSearchKind`). */
export function byPerson(search: NeedSearch): boolean {
  return search.kinds.includes('p')
}

/** A confidential need is found by its person's name only by readers of confidential needs (`q`). */
export function personKinds(needs: { isConfidential: AnyColumn }, search: NeedSearch): SQL | undefined {
  return search.kinds.includes('q') ? undefined : eq(needs.isConfidential, false)
}

/** The first text after every text that begins with `prefix`: its last character's successor (byte order, as the keys are compared). */
export function prefixEnd(prefix: string): string {
  const chars = [...prefix]
  const last = chars.pop()!.codePointAt(0)!
  const next = last === 0xd7ff ? 0xe000 : last + 1
  return chars.join('') + String.fromCodePoint(next)
}
