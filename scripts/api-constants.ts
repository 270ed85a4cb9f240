// The source of console/api-constants.ts: what the console's forms must keep, read from the served OpenAPI
// document, so no limit, list of values, list of fields or key shape is written twice. Written beside console/schema.d.ts
// by tests/adapters/http/console-schema.test.ts (with UPDATE_OPENAPI_TYPES=1), which fails when it is stale.

interface Property {
  maxLength?: number
  enum?: string[]
  items?: Property
  /** What the field looks like for each value of another (an email key by provider): the API's own extension. */
  'x-shapes'?: Record<string, string>
  /** Each import's columns, in order, with the common names a header may give them: the API's own extension. */
  'x-import-columns'?: Record<string, Record<string, string[]>>
}

interface Schema {
  properties?: Record<string, Property>
  /** What each role lets a member do by itself, and what each profile adds: the API's own extension. */
  'x-permissions'?: { roles: Record<string, string[]>; profiles: Record<string, string[]> }
}

interface Operation {
  parameters?: Array<{ name: string; in: string; schema?: { maximum?: number } }>
  requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> }
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, Schema> }
}

const COMPONENT = '#/components/schemas/'

const operationsOf = (document: OpenApiDocument) => Object.values(document.paths).flatMap((operations) => Object.values(operations))

/** The most one page of a list holds: the `limit` query parameter's maximum, the same on every list. */
function listLimit(document: OpenApiDocument): number {
  const maximums = new Set(
    operationsOf(document)
      .flatMap((operation) => operation.parameters ?? [])
      .filter((parameter) => parameter.in === 'query' && parameter.name === 'limit')
      .map((parameter) => parameter.schema?.maximum),
  )
  const [maximum, ...others] = maximums
  if (typeof maximum !== 'number' || others.length > 0) throw new Error(`the lists' limits differ: ${[...maximums].join(', ')}`)
  return maximum
}

/** The component schemas some request takes as its body: what a form sends, so what it must keep. */
function requestSchemas(document: OpenApiDocument): string[] {
  const named = operationsOf(document)
    .flatMap((operation) => Object.values(operation.requestBody?.content ?? {}))
    .map((content) => content.schema?.$ref)
    .filter((ref): ref is string => ref?.startsWith(COMPONENT) === true)
    .map((ref) => ref.slice(COMPONENT.length))
  return [...new Set(named)].sort()
}

/** Each schema's properties that have a `pick`ed value (an array's items' for a list), by schema and field. */
function collect<T>(document: OpenApiDocument, names: string[], pick: (property: Property) => T | undefined) {
  const entries = names.map((name) => {
    const properties = Object.entries(document.components.schemas[name]?.properties ?? {})
    const picked = properties.flatMap(([field, property]) => {
      const value = pick(property) ?? (property.items && pick(property.items))
      return value === undefined ? [] : [[field, value] as const]
    })
    return [name, Object.fromEntries(picked)] as const
  })
  return Object.fromEntries(entries.filter(([, fields]) => Object.keys(fields).length > 0))
}

/** The one `x-import-columns` of the document, on the import report's `columns`. */
function importColumns(document: OpenApiDocument): Record<string, Record<string, string[]>> {
  const found = Object.values(document.components.schemas).flatMap((schema) =>
    Object.values(schema.properties ?? {}).flatMap((property) => (property['x-import-columns'] ? [property['x-import-columns']] : [])),
  )
  if (found.length !== 1) throw new Error(`the document has ${found.length} x-import-columns where one was expected`)
  return found[0]!
}

const grantsOf = (schema: Schema | undefined) => (schema?.['x-permissions'] ? [schema['x-permissions']] : [])

/** One schema a line: the schemas repeat each other's fields, and are read one at a time. */
function constant(doc: string, name: string, bySchema: Record<string, unknown>): string {
  const lines = Object.entries(bySchema).map(([schema, value]) => `  ${schema}: ${JSON.stringify(value)},`)
  return [`/** ${doc} */`, `export const ${name} = {`, ...lines, '} as const', ''].join('\n')
}

/** console/api-constants.ts, as the document given makes it. */
export function apiConstantsModule(document: OpenApiDocument): string {
  const names = requestSchemas(document)
  const fields = Object.fromEntries(names.map((name) => [name, Object.keys(document.components.schemas[name]?.properties ?? {})]))
  return [
    '// Generated from the served OpenAPI document (scripts/api-constants.ts): do not edit. Regenerate with',
    '//   UPDATE_OPENAPI_TYPES=1 bun test tests/adapters/http/console-schema.test.ts',
    '// Each request body schema of the API, by its component name: what a form sends keeps these.',
    '',
    constant(
      "Each string field's maxLength (an array's items' for a list).",
      'MAX_LENGTH',
      collect(document, names, (p) => p.maxLength),
    ),
    constant(
      "Each field's values, in the document's order (an array's items' for a list).",
      'VALUES',
      collect(document, names, (p) => p.enum),
    ),
    constant("Each schema's fields, in the document's order.", 'FIELDS', fields),
    constant(
      "What a field looks like, by another field's value (its `x-shapes`: an email key's, by provider).",
      'SHAPES',
      collect(document, names, (p) => p['x-shapes']),
    ),
    constant(
      "What a role lets a member do by itself, and what a profile adds to any role (the schema's `x-permissions`).",
      'GRANTS',
      Object.fromEntries(names.flatMap((name) => grantsOf(document.components.schemas[name]).map((grants) => [name, grants]))),
    ),
    constant(
      "Each import's columns, in order, with the common names a header may give them (the report's `x-import-columns`).",
      'IMPORT_COLUMNS',
      importColumns(document),
    ),
    '/** The most one page of a list holds (its `limit`): docs/api/conventions.md "Lists". */',
    `export const LIST_LIMIT = ${listLimit(document)}`,
    '',
  ].join('\n')
}
