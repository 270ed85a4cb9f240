import { useState } from 'preact/hooks'
import { failure } from './outcome'
import { t } from './i18n'
import { authorized } from './session'

/**
 * A CSV export (docs/api/exports-import.md "Exports") saved as a download. The access token lives in the console's memory,
 * so no plain link could carry it: the file is fetched with the token and handed to the browser as a Blob.
 * The whole file is read before it is saved, so a transfer cut short is said as a failure, never saved as a
 * shorter file.
 */
export function ExportButton({
  label,
  call,
}: {
  label: string
  call: () => Promise<{ data?: Blob; error?: unknown; response: Response }>
}) {
  const [state, setState] = useState<{ busy?: boolean; text?: string; error?: boolean }>({})
  async function exportFile() {
    setState({ busy: true, text: t.exporting })
    try {
      const { data, error, response } = await authorized(call)
      if (!data) return setState(failure(response.status, error))
      const name = fileName(response.headers.get('content-disposition'))
      save(data, name)
      setState({ text: t.exported(name) })
    } catch {
      setState({ text: t.exportBroken, error: true })
    }
  }
  return (
    <div class="export">
      <button type="button" class="secondary" disabled={state.busy} onClick={() => void exportFile()}>
        {label}
      </button>
      <span role="status" class={state.error ? 'error' : 'notice'}>
        {state.text}
      </span>
    </div>
  )
}

/** The name the service gave the file (`needs-2026-11-24.csv`). */
function fileName(disposition: string | null): string {
  return /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? 'export.csv'
}

/** Hands `file` to the browser as a download named `name`. */
export function save(file: Blob, name: string) {
  const url = URL.createObjectURL(file)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.click()
  // The browser has taken the file once the click's task is over.
  setTimeout(() => URL.revokeObjectURL(url))
}
