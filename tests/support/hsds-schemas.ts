import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import { join } from 'node:path'

// docs/directory.md "Validation": HSDS 3.0's compiled schemas (tests/standards/hsds-3.0), as published and with every object
// closed (`additionalProperties: false`), so a field HSDS does not name fails the strict pass. They are megabytes: compile
// once per test file.

export const HSDS_SCHEMAS = [
  'service',
  'service_list',
  'organization',
  'organization_list',
  'service_at_location',
  'service_at_location_list',
] as const
export type HsdsSchemaName = (typeof HSDS_SCHEMAS)[number]

/** Every object schema that lists its properties, closed: a deep copy. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed)
  if (typeof schema !== 'object' || schema === null) return schema
  const copy = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, closed(value)]))
  if ('properties' in copy && !('additionalProperties' in copy)) copy.additionalProperties = false
  return copy
}

/** The problems of `record` against the schema: none is `[]`. */
export type HsdsValidator = (name: HsdsSchemaName, record: unknown, mode?: 'published' | 'strict') => string[]

export async function hsdsValidator(): Promise<HsdsValidator> {
  const compiled = new Map<string, ValidateFunction>()
  for (const name of HSDS_SCHEMAS) {
    const schema = await Bun.file(join(import.meta.dir, '..', 'standards', 'hsds-3.0', `${name}.json`)).json()
    for (const [mode, body] of [
      ['published', schema],
      ['strict', closed(schema)],
    ] as const) {
      const ajv = new Ajv2020({ strict: false, allErrors: true })
      addFormats(ajv)
      compiled.set(`${name}:${mode}`, ajv.compile(body as object))
    }
  }
  return (name, record, mode = 'published') => {
    const validate = compiled.get(`${name}:${mode}`)!
    return validate(record) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`)
  }
}
