/**
 * Text is valid Unicode or it is refused: a lone UTF-16 surrogate (`"\ud800"` in JSON) is no character
 * anyone writes, PostgreSQL refuses to store it and SQLite stores U+FFFD in its place, so it is turned
 * away before any rule or store sees it, with the same answer from both databases.
 */
export const ILL_FORMED_TEXT = 'must be valid Unicode text'

/** A key as it may appear in a path: its lone surrogates shown as U+FFFD, `~` and `/` escaped (RFC 6901). */
const pointerToken = (key: string) => key.toWellFormed().replaceAll('~', '~0').replaceAll('/', '~1')

/**
 * The JSON pointer (under `path`) of the first string, object key or array item in `value` that is not
 * well-formed Unicode, or undefined. Walks with its own stack, never recursion, like `nestsDeeperThan`.
 */
export function illFormedTextAt(value: unknown, path = ''): string | undefined {
  const pending: Array<[unknown, string]> = [[value, path]]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, at] = next
    if (typeof item === 'string') {
      if (!item.isWellFormed()) return at || '/'
      continue
    }
    if (item === null || typeof item !== 'object') continue
    for (const [key, child] of Object.entries(item)) {
      const childPath = `${at}/${pointerToken(key)}`
      if (!key.isWellFormed()) return childPath
      pending.push([child, childPath])
    }
  }
  return undefined
}
