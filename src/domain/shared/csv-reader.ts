import { InvalidError } from '../errors'

// docs/api/exports-import.md "Import": CSV as RFC 4180 reads it, fed in pieces, so a file is never held whole.

/**
 * A streaming CSV reader: `push` each piece of text as it arrives and take the records it completed; `end`
 * takes the last one. Fields are separated by commas, records by CRLF or LF; a quoted field may hold commas,
 * line breaks and doubled quotes. A record's number counts records, not lines: record 1 is the header.
 */
export class CsvReader {
  private records: string[][] = []
  private record: string[] = []
  private field = ''
  private quoted = false
  /** A quote closed inside a quoted field: the next character says whether it ends the field or is doubled. */
  private quoteSeen = false
  /** Whether the field was quoted, so text after its closing quote is an error. */
  private wasQuoted = false
  private pendingCr = false
  private number = 1
  /** Bad CSV met in a piece: said at the next call, so that the records before it are taken first. */
  private fault: Error | undefined

  /** The records completed by `text`; bad CSV in it is thrown by the next call, the records before it answered. */
  push(text: string): string[][] {
    this.raise()
    try {
      for (const char of text) this.take(char)
    } catch (error) {
      this.fault = error as Error
    }
    return this.drain()
  }

  /** The last record, when the text did not end with a line break; a quoted field still open is an error. */
  end(): string[][] {
    this.raise()
    if (this.quoted && !this.quoteSeen) throw csvError(this.number, 'a quoted field is not closed')
    this.quoted = false
    this.quoteSeen = false
    this.pendingCr = false
    if (this.field !== '' || this.record.length > 0 || this.wasQuoted) this.endRecord()
    return this.drain()
  }

  private take(char: string): void {
    // No database stores NUL alike, and no spreadsheet writes it: a file holding one is not text.
    if (char === '\u0000') throw csvError(this.number, 'it holds a NUL character')
    if (this.pendingCr) {
      this.pendingCr = false
      if (char !== '\n') throw csvError(this.number, 'a carriage return must be followed by a line feed')
      this.endRecord()
    } else if (this.quoted && !this.quoteSeen) {
      if (char === '"') this.quoteSeen = true
      else this.field += char
    } else if (this.quoted && char === '"') {
      // A doubled quote inside a quoted field.
      this.quoteSeen = false
      this.field += '"'
    } else {
      // Past a quoted field's closing quote, or in a plain field.
      this.quoted = false
      this.quoteSeen = false
      this.plain(char)
    }
  }

  private plain(char: string): void {
    if (char === ',') this.endField()
    else if (char === '\n') this.endRecord()
    else if (char === '\r') this.pendingCr = true
    else if (this.wasQuoted) throw csvError(this.number, 'a quoted field must end at its closing quote')
    else if (char === '"') {
      if (this.field !== '') throw csvError(this.number, 'a quote may only open a field')
      this.quoted = true
      this.wasQuoted = true
    } else this.field += char
  }

  private endField(): void {
    this.record.push(this.field)
    this.field = ''
    this.wasQuoted = false
  }

  private endRecord(): void {
    this.endField()
    this.records.push(this.record)
    this.record = []
    this.number += 1
  }

  private raise(): void {
    if (this.fault) throw this.fault
  }

  private drain(): string[][] {
    const done = this.records
    this.records = []
    return done
  }
}

/** Bad CSV at a record: the row it names counts as the import does, from the first after the header. */
function csvError(record: number, why: string): InvalidError {
  const where = record === 1 ? 'The header row' : `Row ${record - 1}`
  return new InvalidError(`${where} is not valid CSV: ${why}`)
}
