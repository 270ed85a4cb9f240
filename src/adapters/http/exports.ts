import { withHeaders } from '@elysiajs/openapi'
import { t } from 'elysia'
import type { Logger } from '../../application/ports/logger'
import type { Constituent } from '../../domain/constituents/constituent'
import { CONTACT_FIELDS } from '../../domain/constituents/contact'
import type { ExportedNeed } from '../../application/needs/export-needs'
import { KNOWN_CUSTOM_FIELDS } from '../../domain/needs/need'
import { csvRecord } from '../../domain/shared/csv'
import { OneOf, problems } from './common.schemas'

// docs/api/exports-import.md "Exports"

export const EXPORT_FORMATS = ['csv'] as const

/** `format=csv`, the one format there is; required, so that another one can come without changing what a link means. */
export const ExportFormatQuery = {
  format: OneOf(EXPORT_FORMATS, { description: 'The file format: csv (RFC 4180, UTF-8, CRLF, a header row)' }),
}

/** One column of an export: its header and a record's cell, empty when the record has no value (or the caller may not read it). */
export interface CsvColumn<T> {
  header: string
  cell(record: T): string | undefined
}

const field = <T, K extends keyof T>(key: K & string, show: (value: NonNullable<T[K]>) => string = String): CsvColumn<T> => ({
  header: key,
  cell: (record) => (record[key] === undefined || record[key] === null ? undefined : show(record[key] as NonNullable<T[K]>)),
})
const time = (value: Date) => value.toISOString()

/**
 * A known `customFields` key's column (`customFields.description`): its text. A value of another kind stays
 * in the `customFields` cell, so that the file imports as it was.
 */
const customField = (key: string): CsvColumn<ExportedNeed> => ({
  header: `customFields.${key}`,
  cell: (need) => (typeof need.customFields[key] === 'string' ? (need.customFields[key] as string) : undefined),
})
const otherCustomFields = (need: ExportedNeed) =>
  Object.fromEntries(
    Object.entries(need.customFields).filter(([key, value]) => !KNOWN_CUSTOM_FIELDS.includes(key) || typeof value !== 'string'),
  )

/**
 * A need's columns: the JSON answer's fields, a name beside each id, a column per known `customFields` key and
 * the other keys as one JSON object (a file's columns are known before its first row: no pass to collect keys).
 */
export const NEED_COLUMNS: Array<CsvColumn<ExportedNeed>> = [
  field('id'),
  field('referenceNumber'),
  field('status'),
  field('partnerId'),
  field('partnerName'),
  field('assignedTo'),
  field('assigneeName'),
  field('constituentId'),
  field('constituentName'),
  field('householdId'),
  field('parentNeedId'),
  field('isConfidential'),
  field('createdBy'),
  field('createdAt', time),
  field('updatedAt', time),
  field('dueDate', time),
  field('resolvedAt', time),
  field('duplicateWarning'),
  ...KNOWN_CUSTOM_FIELDS.map(customField),
  { header: 'customFields', cell: (need) => JSON.stringify(otherCustomFields(need)) },
]

/** A constituent's columns: the same for every caller, the fields it may not read left empty. */
export const CONSTITUENT_COLUMNS: Array<CsvColumn<Constituent>> = [
  field('id'),
  field('householdId'),
  ...CONTACT_FIELDS.map((name) => field<Constituent, typeof name>(name)),
  field('createdAt', time),
  field('updatedAt', time),
]

/**
 * An export's answers for the OpenAPI document: the file (a string of media type text/csv, which the
 * document generator files under that type, see api-docs.ts) with its headers, and the list's problems.
 */
export function csvResponses(what: string) {
  const file = t.String({
    description: `${what}, as CSV (RFC 4180): UTF-8, CRLF line ends, a header row; a cell opening with = + - @, tab or CR is prefixed with a single quote. Streamed.`,
    contentMediaType: 'text/csv',
  })
  const headers = {
    'Content-Disposition': t.String({ maxLength: 100, description: 'attachment, with a file name such as needs-2026-11-24.csv' }),
    'Cache-Control': t.String({ maxLength: 100, description: 'no-store: the file holds personal details' }),
  }
  return { 200: withHeaders(file, headers), ...problems(400, 401, 403) }
}

/**
 * The export's answer: a CSV file streamed batch by batch. Each batch is asked of `batches` only when the
 * client has taken the one before (the stream pulls, it does not run ahead), so memory holds one batch
 * whatever the size of the file. The first batch is read before answering: a refusal or a database failure
 * there is still an error status, not a file cut short.
 */
export async function csvAttachment<T>(
  filename: string,
  columns: Array<CsvColumn<T>>,
  batches: AsyncIterable<T[]>,
  logger: Logger,
): Promise<Response> {
  const encoder = new TextEncoder()
  const records = (batch: T[]) => batch.map((record) => csvRecord(columns.map((column) => column.cell(record) ?? ''))).join('')
  const iterator = batches[Symbol.asyncIterator]()
  const first = await iterator.next()
  const empty = first.done
  // Only the text is kept, not the batch, which is then free to go.
  let opening: string | undefined = csvRecord(columns.map((column) => column.header)) + (first.done ? '' : records(first.value))
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (opening !== undefined) {
          controller.enqueue(encoder.encode(opening))
          opening = undefined
          if (empty) controller.close()
          return
        }
        // A failure past this point can only cut the file short: the stream errs, and the server closes the
        // connection without the final chunk, so the client sees a broken transfer, not a file that looks whole.
        const next = await iterator.next().catch((error: unknown) => {
          logger.error('export cut short', { file: filename, error })
          throw error
        })
        if (next.done) controller.close()
        else controller.enqueue(encoder.encode(records(next.value)))
      },
      async cancel() {
        await iterator.return?.()
      },
    },
    { highWaterMark: 0 },
  )
  return new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8; header=present',
      'content-disposition': `attachment; filename="${filename}"`,
      'cache-control': 'no-store',
    },
  })
}

/** `needs-2026-11-24.csv`: what and when, in UTC. */
export function exportFilename(what: string, at: Date = new Date()): string {
  return `${what}-${at.toISOString().slice(0, 10)}.csv`
}
