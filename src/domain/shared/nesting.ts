/** How deep caller-supplied JSON may nest: far beyond any real form, far below what a recursive reader can take. */
export const MAX_NESTING_DEPTH = 64

/**
 * True when `value` holds arrays or objects more than `max` levels deep. Walks with its own stack, never
 * recursion, so hostile input cannot overflow the call stack; a cycle counts as too deep.
 */
export function nestsDeeperThan(value: unknown, max: number = MAX_NESTING_DEPTH): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next
    if (item === null || typeof item !== 'object') continue
    if (depth >= max) return true
    for (const child of Object.values(item)) if (child !== null && typeof child === 'object') pending.push([child, depth + 1])
  }
  return false
}
