import { useEffect, useState } from 'preact/hooks'
import type { components } from '../../schema'
import { client } from '../shared/api'
import { language, t } from '../shared/i18n'
import { failure } from '../shared/outcome'
import { save } from '../shared/exports'
import { authorized } from '../shared/session'
import { ColumnMapping } from './import-columns'
import { columnNamed, csvRecords, refusedRows, withHeader, type Kind } from './import-file'

// docs/console.md "Import": an org_admin brings a spreadsheet in. The file is checked first (a dry run),
// its report shown; only then may it be imported, and the import's own report replaces it.

type Report = components['schemas']['ImportReport']

/** A count's word: one, or many (none is many, in both languages). */
const plural = (n: number, one: string, many: string) => (n === 1 ? one : many)

/** This screen's words, one object per language of the same shape (the page's `lang` chooses). */
const TEXTS = {
  en: {
    title: 'Import a spreadsheet',
    nav: 'Import',
    intro: 'A CSV file (UTF-8) with a header row naming its columns. It is checked first: nothing is stored until you import it.',
    what: 'What the file holds',
    kinds: { constituents: 'People (constituents)', needs: 'Needs' },
    file: 'CSV file',
    check: 'Check the file',
    checking: 'Checking…',
    importing: 'Importing…',
    importNow: (n: number) => `Import ${n} new ${n === 1 ? 'record' : 'records'}`,
    checked: 'Checked: nothing was stored yet.',
    imported: 'Imported.',
    counts: (r: Report) =>
      `${r.rows} ${plural(r.rows, 'row', 'rows')}: ${r.created} ${r.dryRun ? 'to create' : 'created'}, ${r.skipped} already on file or repeated, ${r.rows - r.created - r.skipped} refused.`,
    errors: 'Rows refused',
    row: 'Row',
    column: 'Column',
    problem: 'Problem',
    chooseFile: 'Choose a CSV file first.',
    columns: 'Columns',
    columnsIntro: 'What each column of the file holds. A column left out is not imported.',
    leftOut: '(not imported)',
    noColumn: 'Choose what at least one column holds.',
    download: 'Download refused rows',
  },
  es: {
    title: 'Importar una hoja de cálculo',
    nav: 'Importar',
    intro:
      'Un archivo CSV (UTF-8) con una fila de encabezado que nombra sus columnas. Primero se revisa: nada se guarda hasta que lo importe.',
    what: 'Qué contiene el archivo',
    kinds: { constituents: 'Personas (constituyentes)', needs: 'Solicitudes' },
    file: 'Archivo CSV',
    check: 'Revisar el archivo',
    checking: 'Revisando…',
    importing: 'Importando…',
    importNow: (n: number) => `Importar ${n} ${n === 1 ? 'registro nuevo' : 'registros nuevos'}`,
    checked: 'Revisado: todavía no se guardó nada.',
    imported: 'Importado.',
    counts: (r: Report) => {
      const refused = r.rows - r.created - r.skipped
      return `${r.rows} ${plural(r.rows, 'fila', 'filas')}: ${r.created} ${r.dryRun ? 'por crear' : plural(r.created, 'creada', 'creadas')}, ${r.skipped} ${plural(r.skipped, 'ya registrada o repetida', 'ya registradas o repetidas')}, ${refused} ${plural(refused, 'rechazada', 'rechazadas')}.`
    },
    errors: 'Filas rechazadas',
    row: 'Fila',
    column: 'Columna',
    problem: 'Problema',
    chooseFile: 'Elija primero un archivo CSV.',
    columns: 'Columnas',
    columnsIntro: 'Qué contiene cada columna del archivo. Una columna sin elegir no se importa.',
    leftOut: '(no se importa)',
    noColumn: 'Elija qué contiene al menos una columna.',
    download: 'Descargar filas rechazadas',
  },
} as const
export const importTexts = TEXTS[language]

/** The file's text to a route of the import: as CSV, a dry run or the real one. */
async function send(kind: Kind, text: string, dryRun: boolean) {
  const options = {
    params: { query: { dryRun } },
    body: text,
    bodySerializer: (body: string) => body,
    headers: { 'content-type': 'text/csv' },
  }
  return authorized(() =>
    kind === 'constituents' ? client.POST('/api/constituents/import', options) : client.POST('/api/needs/import', options),
  )
}

export function ImportScreen() {
  const x = importTexts
  const [kind, setKind] = useState<Kind>('constituents')
  const [file, setFile] = useState<{ name: string; text: string; header: string[] }>()
  const [columns, setColumns] = useState<string[]>([])
  const [busy, setBusy] = useState<string>()
  const [report, setReport] = useState<Report>()
  const [problem, setProblem] = useState<string>()
  useEffect(() => {
    document.title = `${x.title} · ${t.appName}`
  }, [])

  async function run(dryRun: boolean) {
    if (!file) return setProblem(x.chooseFile)
    if (columns.every((column) => column === '')) return setProblem(x.noColumn)
    setBusy(dryRun ? x.checking : x.importing)
    setProblem(undefined)
    const { data, error, response } = await send(kind, withHeader(file.text, columns), dryRun)
    setBusy(undefined)
    setReport(data)
    if (!data) setProblem(failure(response.status, error).text)
  }
  // A new file, kind or column is checked again before it may be imported; each column starts as the field its name says.
  const choose = (next: { kind?: Kind; file?: typeof file; columns?: string[] }) => {
    const chosen = { kind: next.kind ?? kind, file: 'file' in next ? next.file : file }
    setKind(chosen.kind)
    setFile(chosen.file)
    setColumns(next.columns ?? (chosen.file?.header ?? []).map((name) => columnNamed(chosen.kind, name)))
    setReport(undefined)
    setProblem(undefined)
  }
  async function read(chosen: File | undefined) {
    if (!chosen) return choose({ file: undefined })
    const text = await chosen.text()
    choose({ file: { name: chosen.name, text, header: csvRecords(text)[0]?.cells.map((name) => name.trim()) ?? [] } })
  }

  return (
    <>
      <h1>{x.title}</h1>
      <p>{x.intro}</p>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          void run(true)
        }}
      >
        <fieldset>
          <legend>{x.what}</legend>
          {(['constituents', 'needs'] as const).map((option) => (
            <label key={option}>
              <input type="radio" name="kind" checked={kind === option} onChange={() => choose({ kind: option })} /> {x.kinds[option]}
            </label>
          ))}
        </fieldset>
        <div>
          <label for="import-file">{x.file}</label>
          <input id="import-file" type="file" accept=".csv,text/csv" onChange={(event) => void read(event.currentTarget.files?.[0])} />
        </div>
        {file && file.header.length > 0 && (
          <ColumnMapping kind={kind} header={file.header} columns={columns} onChange={(chosen) => choose({ columns: chosen })} />
        )}
        <button type="submit" disabled={Boolean(busy)}>
          {x.check}
        </button>
      </form>
      <div role="status" class="notice">
        {busy ?? (report ? `${report.dryRun ? x.checked : x.imported} ${x.counts(report)}` : '')}
      </div>
      {problem && (
        <p role="alert" class="error">
          {problem}
        </p>
      )}
      {report?.dryRun && report.created > 0 && (
        <button type="button" disabled={Boolean(busy)} onClick={() => void run(false)}>
          {x.importNow(report.created)}
        </button>
      )}
      {report && file && report.errors.length > 0 && (
        <>
          <button
            type="button"
            class="secondary"
            onClick={() => save(new Blob([refusedRows(file.text, report)], { type: 'text/csv' }), refusedName(file.name))}
          >
            {x.download}
          </button>
          <Refused report={report} />
        </>
      )}
    </>
  )
}

/** `people.csv` → `people-refused.csv`. */
const refusedName = (name: string) => `${name.replace(/\.csv$/i, '')}-refused.csv`

function Refused({ report }: { report: Report }) {
  const x = importTexts
  return (
    <>
      <h2>{x.errors}</h2>
      <div class="table">
        <table>
          <caption class="visually-hidden">{x.errors}</caption>
          <thead>
            <tr>
              <th scope="col">{x.row}</th>
              <th scope="col">{x.column}</th>
              <th scope="col">{x.problem}</th>
            </tr>
          </thead>
          <tbody>
            {report.errors.map((error) => (
              <tr key={`${error.row} ${error.field}`}>
                <td>{error.row}</td>
                <td>{error.field || '—'}</td>
                <td>{error.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  )
}
