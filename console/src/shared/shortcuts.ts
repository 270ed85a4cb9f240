import { useLayoutEffect, useRef } from 'preact/hooks'

// Single keys that act anywhere in the console ("/" the search, "n" a new need, "?" the list of them); a screen
// adds its own with `useShortcut` while it shows. None acts while the member types in a field.

export interface Shortcut {
  /** `KeyboardEvent.key`: "/", "n", "?". */
  key: string
  /** What it does, in the member's language: a line of the "?" list. */
  description: string
  run: () => void
}

const registered: Shortcut[] = []

/** Adds a shortcut until the function returned is called; the latest one of a key wins. */
export function registerShortcut(shortcut: Shortcut): () => void {
  registered.push(shortcut)
  return () => {
    const at = registered.indexOf(shortcut)
    if (at >= 0) registered.splice(at, 1)
  }
}

/** The shortcut in force for a key: the latest registered. */
const inForce = (key: string) => [...registered].reverse().find((shortcut) => shortcut.key === key)

/** The shortcuts in force, one per key, in the order their keys were first added. */
export function shortcuts(): Shortcut[] {
  return [...new Set(registered.map((shortcut) => shortcut.key))].map((key) => inForce(key)!)
}

/** A shortcut for as long as the component shows (and `enabled` holds); `run` may change between renders. */
export function useShortcut(key: string, description: string, run: () => void, enabled = true) {
  const latest = useRef(run)
  latest.current = run
  // Before the browser paints: a key pressed as soon as what it acts on shows is heard (useEffect waits a frame).
  useLayoutEffect(
    () => (enabled ? registerShortcut({ key, description, run: () => latest.current() }) : undefined),
    [key, description, enabled],
  )
}

/** A key pressed in a field, a dialog or with a modifier is the field's, the dialog's or the browser's. */
function ignored(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return true
  const target = event.target instanceof Element ? event.target : null
  return Boolean(target?.closest('input, textarea, select, [contenteditable]:not([contenteditable="false"]), dialog'))
}

/** Listens for the shortcuts on the whole page; returns the function that stops. */
export function listenForShortcuts(): () => void {
  const onKey = (event: KeyboardEvent) => {
    if (ignored(event)) return
    const shortcut = inForce(event.key)
    if (!shortcut) return
    event.preventDefault()
    shortcut.run()
  }
  document.addEventListener('keydown', onKey)
  return () => document.removeEventListener('keydown', onKey)
}
