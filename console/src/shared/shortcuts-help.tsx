import { useEffect, useRef, useState } from 'preact/hooks'
import { t } from './i18n'
import { go } from './router'
import { listenForShortcuts, shortcuts, useShortcut, type Shortcut } from './shortcuts'

/** The screen's search box: its search input (the inbox's "Search needs"), else a search form's first field. */
function focusSearch() {
  const box = document.querySelector<HTMLInputElement>('main input[type="search"]') ?? document.querySelector('main [role="search"] input')
  box?.focus()
}

/**
 * The console-wide shortcuts ("/" the screen's search, "n" a new need for those who may create one) and the
 * "?" list of every shortcut in force, a modal dialog: labelled by its heading, closed by Escape or "Close",
 * the keyboard back where it was.
 */
export function ShortcutsHelp({ mayCreate }: { mayCreate: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null)
  const returnTo = useRef<HTMLElement | null>(null)
  const [listed, setListed] = useState<Shortcut[]>([])
  useEffect(listenForShortcuts, [])
  useShortcut('/', t.shortcuts.search, focusSearch)
  useShortcut('n', t.shortcuts.newNeed, () => go(['new']), mayCreate)
  useShortcut('?', t.shortcuts.help, () => {
    returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
    setListed(shortcuts())
    dialog.current?.showModal()
  })

  return (
    <dialog ref={dialog} class="shortcuts" aria-labelledby="shortcuts-title" onClose={() => returnTo.current?.focus()}>
      <h2 id="shortcuts-title">{t.shortcuts.title}</h2>
      <dl class="shortcut-keys">
        {listed.map((shortcut) => [
          <dt key={`${shortcut.key}-key`}>
            <kbd>{shortcut.key}</kbd>
          </dt>,
          <dd key={`${shortcut.key}-does`}>{shortcut.description}</dd>,
        ])}
      </dl>
      <form method="dialog">
        <button type="submit">{t.shortcuts.close}</button>
      </form>
    </dialog>
  )
}
