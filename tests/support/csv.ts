/**
 * A strict RFC 4180 reader, written apart from the service's writer so the two check each other: records end
 * in CRLF (the last one too), a field is either plain (no quote, comma, CR or LF) or quoted with quotes doubled
 * inside. Anything else throws.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = []
  let record: string[] = []
  let i = 0
  while (i < text.length) {
    let field = ''
    if (text[i] === '"') {
      i++
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field')
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"'
            i += 2
            continue
          }
          i++
          break
        }
        field += text[i++]
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`a quote inside a plain field at ${i}`)
        field += text[i++]
      }
    }
    record.push(field)
    if (text[i] === ',') {
      i++
      continue
    }
    if (text.startsWith('\r\n', i)) {
      i += 2
      records.push(record)
      record = []
      continue
    }
    throw new Error(`expected a comma or CRLF at ${i}`)
  }
  if (record.length > 0) throw new Error('the last record does not end in CRLF')
  return records
}
