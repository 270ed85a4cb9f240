import { IMPORT_COLUMNS } from '../../api-constants'
import { t } from '../shared/i18n'
import type { Kind } from './import-file'
import { importTexts } from './imports'

/** A column as the reader knows it: a person's field in words, with its name in the file (a need's own columns by name). */
function columnLabel(column: string): string {
  const field = column.replace(/^customFields\./, '')
  const words = field === 'description' ? t.description : t.personFields[field as keyof typeof t.personFields]
  return words ? `${words} (${column})` : column
}

/**
 * The mapping step (docs/console.md "Import"): each column of the file's header with the field it fills,
 * chosen at first by its name (the document's common names), changed at will; the file is sent with its
 * header rewritten to the chosen fields.
 */
export function ColumnMapping({
  kind,
  header,
  columns,
  onChange,
}: {
  kind: Kind
  header: readonly string[]
  columns: readonly string[]
  onChange: (columns: string[]) => void
}) {
  const x = importTexts
  const fields = Object.keys(IMPORT_COLUMNS[kind])
  return (
    <fieldset class="import-columns">
      <legend>{x.columns}</legend>
      <p>{x.columnsIntro}</p>
      {header.map((name, i) => (
        // A header's columns are its positions: two may share a name.
        <div key={i}>
          <label for={`import-column-${i}`}>{name || `#${i + 1}`}</label>
          <select
            id={`import-column-${i}`}
            value={columns[i] ?? ''}
            onChange={(event) => onChange(columns.map((column, j) => (j === i ? event.currentTarget.value : column)))}
          >
            <option value="">{x.leftOut}</option>
            {fields.map((field) => (
              <option key={field} value={field}>
                {columnLabel(field)}
              </option>
            ))}
          </select>
        </div>
      ))}
    </fieldset>
  )
}
