import { CONTACT_FIELDS, NO_CONTACT_GIVEN, readContactDetails, type ContactDetails } from '../../domain/constituents/contact'
import type { ImportColumns } from '../../domain/imports/import'
import { matchKeysOf, type MatchKeys } from '../../domain/constituents/matching'
import { parseConstituentQuery } from '../../domain/constituents/search'
import type { AuditSubject, AuditTrail } from '../audit/audit-trail'
import type { RecordImporter } from '../imports/record-import'
import type { Repositories } from '../ports/repositories'
import { phoneCountryOf } from '../organizations/phone-country'
import type { ConstituentRegistry } from './constituent-registry'

/** The keys that make a row the same person as one on file: the same phone, email, or name and date of birth. */
const EXACT_KEYS = ['phone', 'email', 'nameAndBirth'] as const satisfies ReadonlyArray<keyof MatchKeys>

/** No constituent has it: a lookup that leaves out no one. */
const NO_ID = '00000000-0000-0000-0000-000000000000'

function exactKeysOf(details: ContactDetails): MatchKeys {
  const keys = matchKeysOf(details)
  return Object.fromEntries(EXACT_KEYS.flatMap((key) => (keys[key] ? [[key, keys[key]]] : [])))
}

/** Every field, in the descriptor's order: two rows or records with the same are one person. */
const allFieldsOf = (details: ContactDetails) => JSON.stringify(CONTACT_FIELDS.map((field) => details[field] ?? null))

/** The most records of one name an identical record is looked for among (a page of the search). */
const NAMESAKES = 100

/** The columns a constituents import reads; the export's others name records of the file's origin, which mean nothing here. */
export const CONSTITUENT_IMPORT_COLUMNS: ImportColumns = { read: CONTACT_FIELDS, ignored: ['id', 'householdId', 'createdAt', 'updatedAt'] }

/**
 * Constituents from the columns of their export (docs/api/exports-import.md "Import"): each row checked as a creation is,
 * registered as one (a household of its own, duplicate detection), and skipped when it is someone on file.
 */
export class ConstituentImporter implements RecordImporter<ContactDetails> {
  readonly what = 'constituents'
  readonly columns = CONSTITUENT_IMPORT_COLUMNS

  constructor(
    private readonly registry: ConstituentRegistry,
    private readonly audit: AuditTrail,
  ) {}

  async prepare(repositories: Repositories, organizationId: string) {
    const country = await phoneCountryOf(repositories, organizationId)
    return (row: Readonly<Record<string, string>>) => {
      const { details, errors } = readContactDetails(row, '', country)
      if (errors.length > 0) return { errors }
      if (Object.keys(details).length === 0) return { errors: [{ path: '', message: NO_CONTACT_GIVEN }] }
      return { value: details }
    }
  }

  keysOf(details: ContactDetails): string[] {
    return [...Object.entries(exactKeysOf(details)).map(([key, value]) => `${key}:${value}`), `all:${allFieldsOf(details)}`]
  }

  /**
   * Someone on file by the same phone, email, or name and date of birth (one lookup for the batch); for a row
   * with none of these, a record identical in every field (found by its last name and street, or its name),
   * so that importing a file again creates none of its rows twice.
   */
  async existing(r: Repositories, organizationId: string, batch: readonly ContactDetails[]): Promise<boolean[]> {
    const keys = batch.map(exactKeysOf)
    const found = await r.constituents.findSharingKeys(organizationId, keys, batch.length)
    const onFile = new Set(found.flatMap((c) => this.keysOf(c)))
    return Promise.all(
      batch.map((details, i) =>
        Object.keys(keys[i]!).length > 0
          ? this.keysOf(details).some((key) => onFile.has(key))
          : this.identicalOnFile(r, organizationId, details),
      ),
    )
  }

  async create(r: Repositories, subject: AuditSubject, batch: readonly ContactDetails[]): Promise<void> {
    const registered = await this.registry.registerAll(
      r,
      subject.organizationId,
      batch.map((details) => ({ details })),
    )
    const entries = registered.map(
      ({ constituent }) => ({ action: 'create', recordType: 'constituent', recordId: constituent.id }) as const,
    )
    await this.audit.record(r, subject, ...entries)
  }

  private async identicalOnFile(r: Repositories, organizationId: string, details: ContactDetails): Promise<boolean> {
    const fields = allFieldsOf(details)
    const byStreet = await r.constituents.findByMatchKeys(organizationId, matchKeysOf(details), NO_ID, NAMESAKES)
    if (byStreet.some((found) => allFieldsOf(found) === fields)) return true
    const name = [details.firstName, details.lastName].filter(Boolean).join(' ')
    if (name === '') return false
    const namesakes = await r.constituents.search(organizationId, parseConstituentQuery(name), { page: 1, limit: NAMESAKES })
    return namesakes.items.some((found) => allFieldsOf(found) === fields)
  }
}
