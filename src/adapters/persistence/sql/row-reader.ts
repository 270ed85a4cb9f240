import { Column, getTableColumns, getTableName } from 'drizzle-orm'
import type { SQLiteTable } from 'drizzle-orm/sqlite-core'
import type { Present } from './sql-repository'

/** Turns a statement's rows, as the driver gives them (arrays, one value a column), into records. */
export type RowReader<Row> = (rows: unknown[][]) => Row[]

/** A table's record as the repositories take it: its NULL columns and those kept inside (`omitted`) left out. */
export type RecordOf<T extends SQLiteTable, O extends string = never> = Present<Omit<T['$inferSelect'], O>>

/** Each table's readers, by the list of columns they leave out (a constant of the caller's, looked up by identity). */
const readers = new WeakMap<SQLiteTable, Map<readonly string[], RowReader<unknown>>>()
const ALL_COLUMNS: readonly never[] = []

/**
 * Reads the rows of a select of the whole table (`db.select().from(table)`, whose columns come in the
 * table's order) straight into records, in one pass: each value decoded by its own column (a time, JSON, a
 * boolean, as this database stores it), NULLs and `omitted` columns left out. Drizzle's generic mapping,
 * then `present`'s copy, cost about 1 µs a need row, more than the rest of a page's reading (docs/performance.md).
 */
export function recordsOf<T extends SQLiteTable, O extends string = never>(
  table: T,
  omitted: readonly O[] = ALL_COLUMNS,
): RowReader<RecordOf<T, O>> {
  let byOmitted = readers.get(table)
  if (!byOmitted) {
    byOmitted = new Map()
    readers.set(table, byOmitted)
  }
  let reader = byOmitted.get(omitted)
  if (!reader) {
    const columns = Object.entries(getTableColumns(table)).map(([name, column]) => ({
      name: omitted.includes(name as O) ? undefined : name,
      // Columns the driver gives as they are keep no decoder: most of a row's.
      decode: column.mapFromDriverValue === Column.prototype.mapFromDriverValue ? undefined : column,
    }))
    reader = (rows) => {
      if (rows[0] && rows[0].length !== columns.length)
        throw new Error(`A reader of ${getTableName(table)} got a row of ${rows[0].length} columns`)
      return rows.map((values) => readRecord(columns, values))
    }
    byOmitted.set(omitted, reader)
  }
  return reader as RowReader<RecordOf<T, O>>
}

function readRecord(columns: ReadonlyArray<{ name: string | undefined; decode: Column | undefined }>, values: unknown[]) {
  const record: Record<string, unknown> = {}
  for (let i = 0; i < columns.length; i++) {
    const value = values[i]
    const { name, decode } = columns[i]!
    if (value === null || name === undefined) continue
    record[name] = decode ? decode.mapFromDriverValue(value) : value
  }
  return record
}
