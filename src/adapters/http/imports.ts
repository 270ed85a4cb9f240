import { t } from 'elysia'
import { CONSTITUENT_IMPORT_COLUMNS } from '../../application/constituents/constituent-importer'
import type { ImportOptions, ImportSource } from '../../application/imports/record-import'
import { NEED_IMPORT_COLUMNS } from '../../application/needs/need-importer'
import type { Actor } from '../../domain/auth/actor'
import { HEADER_ALIASES } from '../../domain/imports/header-names'
import {
  IMPORT_LIMITS,
  REPORTED_ERRORS,
  REPORTED_UNKNOWN,
  ROW_ERROR_TEXT,
  type ImportColumns,
  type ImportReport,
} from '../../domain/imports/import'
import { Int32, Named, problems } from './common.schemas'
import { UnsupportedMediaTypeError } from './request-body'

// docs/api/exports-import.md "Import"

export const ImportQuery = t.Object(
  {
    dryRun: t.Optional(
      t.Boolean({ default: false, description: 'true: check the file and answer what an import would do, storing nothing' }),
    ),
  },
  { additionalProperties: false },
)

// `x-import-columns`: each import's columns in order, with the common names its header may give them, for the
// console's mapping step (which imports nothing of the service's code).
const columnsWithAliases = ({ read }: ImportColumns) => Object.fromEntries(read.map((column) => [column, HEADER_ALIASES[column] ?? []]))
const IMPORT_COLUMNS = { constituents: columnsWithAliases(CONSTITUENT_IMPORT_COLUMNS), needs: columnsWithAliases(NEED_IMPORT_COLUMNS) }
const READ_COLUMNS = [...new Set([...CONSTITUENT_IMPORT_COLUMNS.read, ...NEED_IMPORT_COLUMNS.read])]

const Count = (description: string) => Int32({ minimum: 0, maximum: IMPORT_LIMITS.maxRows }, { description })

export const ImportReportSchema = Named(
  'ImportReport',
  t.Object({
    dryRun: t.Boolean({ description: 'Whether this was a dry run, which stored nothing' }),
    rows: Count('Rows read after the header, blank lines aside'),
    created: Count('Rows created (on a dry run: that an import would create)'),
    skipped: Count('Rows that are a record already on file, or an earlier row of the file'),
    errors: t.Array(
      t.Object({
        row: Int32({ minimum: 1, maximum: IMPORT_LIMITS.maxRows }, { description: 'The row: 1 is the first after the header' }),
        field: t.String({
          ...ROW_ERROR_TEXT,
          description: 'The column at fault (a key of customFields after a slash); empty for the whole row',
        }),
        message: t.String({ ...ROW_ERROR_TEXT, description: 'What the value must be, in the words of the API' }),
      }),
      { maxItems: REPORTED_ERRORS, description: `The refused rows' errors, the first ${REPORTED_ERRORS}; a refused row is not created` },
    ),
    columns: t.Object(
      {
        matched: t.Array(
          t.Object({
            header: t.String({ ...ROW_ERROR_TEXT, description: "The header's name, as the file gives it" }),
            column: t.String({
              maxLength: Math.max(...READ_COLUMNS.map((column) => column.length)),
              description: `The column it names, by its own name or a common one: ${READ_COLUMNS.join(', ')}`,
            }),
          }),
          { maxItems: READ_COLUMNS.length, description: "The header's names of columns the import reads, in the file's order" },
        ),
        unknown: t.Array(t.String(ROW_ERROR_TEXT), {
          maxItems: REPORTED_UNKNOWN,
          description: `The header's names of no column the import reads nor of the export's it passes over, the first ${REPORTED_UNKNOWN}: their cells are not read`,
        }),
      },
      { description: 'How the header was read', 'x-import-columns': IMPORT_COLUMNS },
    ),
  }),
)

/** The route's OpenAPI description: a CSV body, the report, and its problems (413 past the limits). */
export function importDocumentation(what: string, columns = "the export's column names") {
  return {
    response: { 200: ImportReportSchema, ...problems(400, 401, 403, 413, 415) },
    requestBody: {
      required: true,
      description: `The ${what} as CSV (RFC 4180, UTF-8 with or without a byte-order mark), a header row of ${columns}; at most ${IMPORT_LIMITS.maxRows} rows and ${IMPORT_LIMITS.maxBytes} bytes`,
      content: { 'text/csv': { schema: { type: 'string' as const, maxLength: IMPORT_LIMITS.maxBytes } } },
    },
  }
}

/** What both imports' use cases take. */
interface ImportUseCase {
  execute(actor: Actor, file: ImportSource, options: ImportOptions): Promise<ImportReport>
}

/** A route's handler for `useCase`: the file as it arrives, and its report. */
export function importing(useCase: ImportUseCase) {
  return ({ actor, query, request }: { actor: Actor; query: { dryRun?: boolean }; request: Request }) =>
    useCase.execute(actor, csvFile(request), { dryRun: query.dryRun ?? false })
}

/** The body, unread: the use case reads it as it arrives. Anything but CSV is 415. */
export function csvFile(request: Request): ImportSource {
  if (!/^text\/csv\s*(;|$)/i.test(request.headers.get('content-type') ?? '')) {
    throw new UnsupportedMediaTypeError('The file must be sent as CSV, with Content-Type: text/csv')
  }
  return request.body ?? emptyFile()
}

async function* emptyFile(): ImportSource {}
