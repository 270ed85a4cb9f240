import type { FieldError } from '../../domain/errors'
import type { ImportColumns, ImportRow } from '../../domain/imports/import'
import { KNOWN_CUSTOM_FIELDS, needFieldErrors, type CustomFields, type NeedStatus } from '../../domain/needs/need'
import type { Partner } from '../../domain/partners/partner'
import type { AuditSubject } from '../audit/audit-trail'
import type { RecordImporter } from '../imports/record-import'
import type { Clock } from '../ports/clock'
import type { Repositories } from '../ports/repositories'
import { phoneCountryOf } from '../organizations/phone-country'
import type { NeedIntake } from './need-intake'

/** A row of a needs import, checked. */
export interface ImportedNeed {
  partner: Partner
  status: NeedStatus
  customFields: CustomFields
  isConfidential: boolean
  createdAt: Date
  resolvedAt?: Date
}

/** `2025-03-01` or `2025-03-01T09:30:00Z`: a date (midnight UTC) or a time with its offset. */
const ORIGINAL_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/

/** JSON with every object's keys sorted: PostgreSQL's jsonb keeps them in its own order, so two equal objects compare alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/** The export's columns of the known `customFields` keys (`customFields.description`). */
const CUSTOM_FIELD_COLUMNS = KNOWN_CUSTOM_FIELDS.map((key) => `customFields.${key}`)

/** The columns a needs import reads, and those of the export it leaves alone. */
export const NEED_IMPORT_COLUMNS: ImportColumns = {
  read: [
    'partnerId',
    'partnerName',
    'status',
    'description',
    'isConfidential',
    'customFields',
    ...CUSTOM_FIELD_COLUMNS,
    'createdAt',
    'resolvedAt',
  ],
  // The export's other columns name records of the file's origin, or are worked out again on creation.
  ignored: [
    'id',
    'referenceNumber',
    'assignedTo',
    'assigneeName',
    'constituentId',
    'constituentName',
    'householdId',
    'parentNeedId',
    'createdBy',
    'updatedAt',
    'dueDate',
    'duplicateWarning',
  ],
}

/**
 * Needs from the columns of their export, plus `description` (docs/api/exports-import.md "Import"): each row recorded as
 * an intake by staff would be, on its original date. A row is the same as a need on file (or an earlier row)
 * with the same original time and the same `customFields`, which hold its description and contact details.
 */
export class NeedImporter implements RecordImporter<ImportedNeed> {
  readonly what = 'needs'
  readonly columns = NEED_IMPORT_COLUMNS

  constructor(
    private readonly intake: NeedIntake,
    private readonly clock: Clock,
  ) {}

  async prepare(repositories: Repositories, organizationId: string) {
    const partners = (await repositories.partners.listAll(organizationId)).filter((partner) => !partner.isArchived)
    const now = this.clock.now()
    const country = await phoneCountryOf(repositories, organizationId)
    return (row: ImportRow) => {
      const errors: FieldError[] = []
      // A file from elsewhere names the partner by an id of its origin: its name beside it is then the one to find.
      const name = row.partnerName?.trim() ?? ''
      const partner = partnerNamed(partners, row.partnerId?.trim() ?? '') ?? (name === '' ? undefined : partnerNamed(partners, name))
      if (!partner) errors.push({ path: '/partnerId', message: 'must name a partner of this organization, by its id or its name' })
      const createdAt = originalDate('/createdAt', row.createdAt?.trim() ?? '', now, errors)
      const isConfidential = confidentiality(row.isConfidential?.trim() ?? '', errors)
      const customFields = customFieldsOf(row, errors)
      const status = (row.status?.trim() || 'NEW') as NeedStatus
      const resolvedAt = resolution(row.resolvedAt?.trim() ?? '', status, createdAt, now, errors)
      errors.push(...needFieldErrors({ status, ...(customFields ? { customFields } : {}) }, country))
      if (errors.length > 0 || !partner || !createdAt || isConfidential === undefined || !customFields) return { errors }
      return { value: { partner, status, customFields, isConfidential, createdAt, ...(resolvedAt ? { resolvedAt } : {}) } }
    }
  }

  keysOf(need: Pick<ImportedNeed, 'createdAt' | 'customFields'>): string[] {
    return [`${need.createdAt.toISOString()}|${canonicalJson(need.customFields)}`]
  }

  async existing(r: Repositories, organizationId: string, needs: readonly ImportedNeed[]): Promise<boolean[]> {
    const found = await r.needs.findCreatedAt(
      organizationId,
      needs.map((need) => need.createdAt),
    )
    const onFile = new Set(found.map((need) => this.keysOf(need)[0]))
    return needs.map((need) => onFile.has(this.keysOf(need)[0]))
  }

  async create(r: Repositories, subject: AuditSubject, needs: readonly ImportedNeed[]): Promise<void> {
    await this.intake.recordAll(
      r,
      subject.organizationId,
      needs.map((need) => ({
        organizationId: subject.organizationId,
        partner: need.partner,
        status: need.status,
        customFields: need.customFields,
        isConfidential: need.isConfidential,
        ...(subject.memberId ? { createdBy: subject.memberId } : {}),
        originalDate: need.createdAt,
        ...(need.resolvedAt ? { originalResolution: need.resolvedAt } : {}),
      })),
    )
  }
}

/** The partner a cell names by id or by name (any case); an empty cell names the default partner. */
function partnerNamed(partners: readonly Partner[], cell: string): Partner | undefined {
  if (cell === '') return partners.find((partner) => partner.isDefault)
  const name = cell.toLowerCase()
  return partners.find((partner) => partner.id === cell) ?? partners.find((partner) => partner.name.toLowerCase() === name)
}

/** `createdAt` is required: without it a second import of the file could not know the row, and would create it again. */
function originalDate(path: string, cell: string, now: Date, errors: FieldError[]): Date | undefined {
  const at = ORIGINAL_DATE.test(cell) ? new Date(cell) : undefined
  if (cell === '') errors.push({ path, message: 'is required: the date the request was made' })
  else if (!at || Number.isNaN(at.getTime())) {
    errors.push({ path, message: 'must be a date or a time in ISO 8601, like 2025-03-01 or 2025-03-01T09:30:00Z' })
  } else if (at > now) errors.push({ path, message: 'must not be in the future' })
  else return at
  return undefined
}

/** `resolvedAt`, optional: when a RESOLVED need was resolved, not before it was made (empty: when it was made). */
function resolution(cell: string, status: NeedStatus, createdAt: Date | undefined, now: Date, errors: FieldError[]): Date | undefined {
  if (cell === '') return undefined
  if (status !== 'RESOLVED') {
    errors.push({ path: '/resolvedAt', message: 'is only for a RESOLVED need: leave it empty' })
    return undefined
  }
  const at = originalDate('/resolvedAt', cell, now, errors)
  if (at && createdAt && at < createdAt) errors.push({ path: '/resolvedAt', message: 'must not be before createdAt' })
  return at
}

function confidentiality(cell: string, errors: FieldError[]): boolean | undefined {
  if (cell === '' || cell.toLowerCase() === 'false') return false
  if (cell.toLowerCase() === 'true') return true
  errors.push({ path: '/isConfidential', message: 'must be true or false' })
  return undefined
}

/**
 * `customFields` as a JSON object with each known key's column in it (a filled cell over the same key of the
 * JSON), and `description` kept in it as public intake keeps it.
 */
function customFieldsOf(row: ImportRow, errors: FieldError[]): CustomFields | undefined {
  let customFields: unknown = {}
  const cell = row.customFields?.trim() ?? ''
  // NUL is no character of a text people write, and PostgreSQL cannot store it (as the API refuses it).
  if (cell.includes('\\u0000')) {
    errors.push({ path: '/customFields', message: 'may not contain NUL characters (\\u0000)' })
    return undefined
  }
  if (cell !== '') {
    try {
      customFields = JSON.parse(cell)
    } catch {
      customFields = undefined
    }
  }
  if (customFields === null || typeof customFields !== 'object' || Array.isArray(customFields)) {
    errors.push({ path: '/customFields', message: 'must be a JSON object' })
    return undefined
  }
  // As written, not trimmed: a second import finds the need by its customFields as they were kept.
  const columns = KNOWN_CUSTOM_FIELDS.flatMap((key) => {
    const cell = row[`customFields.${key}`] ?? ''
    return cell.trim() === '' ? [] : [[key, cell]]
  })
  const description = row.description?.trim() ?? ''
  return { ...customFields, ...Object.fromEntries(columns), ...(description === '' ? {} : { description }) }
}
