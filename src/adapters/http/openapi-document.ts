import { COMPONENT_NAME, PARAMETER_NAME } from './common.schemas'
import { KIND_OF_STATUS, TITLE_OF } from './problem'

// docs/api/openapi.md "The OpenAPI document" and "Clients": what the generator of @elysiajs/openapi leaves for a
// client generator to stumble on, set right once, as the document is served.

type Json = Record<string, unknown>
interface Parameter {
  in: string
  required?: boolean
  schema?: Json
  style?: string
  explode?: boolean
}
interface Operation {
  parameters?: Array<Parameter | { $ref: string }>
  requestBody?: { content?: Record<string, unknown> }
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Json }> }>
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>
  components?: { schemas?: Record<string, Json>; parameters?: Record<string, Json> } & Json
}

/** The document as clients get it: a copy, so the generator's cached one stays as it is. */
export function documentForClients(generated: OpenApiDocument): OpenApiDocument {
  const document = structuredClone(generated)
  const components: Record<string, Json> = {}
  const parameters: Record<string, Json> = {}
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations)) {
      for (const parameter of (operation.parameters ?? []) as Parameter[]) readAsTyped(parameter)
      if (operation.parameters) operation.parameters = (operation.parameters as Parameter[]).map((p) => hoistParameter(p, parameters))
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        fileResponse(Number(status), response)
        for (const media of Object.values(response.content ?? {})) {
          // Whether the service checks an answer (answer-checks.ts) is no part of what it answers.
          delete media.schema?.noValidate
          closeObjects(media.schema)
        }
      }
    }
  }
  document.paths = hoistNamed(document.paths, components) as OpenApiDocument['paths']
  document.components = { ...document.components, schemas: sortedByName(components), parameters: sortedByName(parameters) }
  return document
}

/** A parameter marked by Parameter (common.schemas.ts), replaced by a reference to its one description in components/parameters. */
function hoistParameter(parameter: Parameter, parameters: Record<string, Json>): Parameter | { $ref: string } {
  const mark = parameter.schema?.[PARAMETER_NAME] as { name: string; spelled: string } | undefined
  if (!mark) return parameter
  const { [PARAMETER_NAME]: _mark, description, ...schema } = parameter.schema!
  parameters[mark.name] = { name: mark.spelled, in: parameter.in, required: parameter.required ?? false, description, schema }
  return { $ref: `#/components/parameters/${mark.name}` }
}

/**
 * A query parameter as it is read, not as it travels: Elysia documents a number, a boolean or an array
 * as "its text, or the value" (anyOf with a string branch); clients should see the value. An array is one
 * comma-separated parameter (`status=NEW,OPEN`).
 */
function readAsTyped(parameter: Parameter) {
  const branches = parameter.schema?.anyOf as Json[] | undefined
  const typed = branches?.filter((branch) => branch.type !== 'string')
  if (branches && typed?.length === 1 && branches.length === 2) parameter.schema = typed[0]
  if (parameter.in === 'query' && parameter.schema?.type === 'array') Object.assign(parameter, { style: 'form', explode: false })
}

/**
 * An error answer is application/problem+json and says its status's title; an answer without a body has
 * no content (the generator writes `{type: "void"}`); a string of another media type (a CSV export) is
 * filed under that type, not text/plain.
 */
function fileResponse(status: number, response: { description?: string; content?: Record<string, { schema?: Json }> }) {
  const content = response.content
  if (!content) return
  if ('type' in content) {
    delete response.content
    return
  }
  const json = content['application/json']
  const kind = KIND_OF_STATUS.get(status)
  if (status >= 400 && json && kind) {
    response.content = { 'application/problem+json': json }
    response.description = TITLE_OF[kind]
  }
  const mediaType = content['text/plain']?.schema?.contentMediaType
  if (typeof mediaType === 'string') response.content = { [mediaType]: content['text/plain']! }
}

/**
 * Every object of an answer closed (`additionalProperties: false`): Elysia answers only the fields a schema
 * names, and writes that into the schemas it compiles, on the first request of each route. Said here of
 * every answer, the document is the same whether or not a route has answered yet.
 */
function closeObjects(schema: unknown) {
  if (Array.isArray(schema)) return schema.forEach(closeObjects)
  if (!schema || typeof schema !== 'object') return
  const node = schema as Json
  if (node.type === 'object' && node.properties && !('additionalProperties' in node)) node.additionalProperties = false
  for (const child of Object.values(node)) closeObjects(child)
}

/**
 * Every schema marked by Named, replaced by a reference to its one copy in components/schemas. Two
 * different schemas under one name are a mistake of ours, caught here (and by the tests) rather than
 * shown to clients as one of them.
 */
function hoistNamed(value: unknown, components: Record<string, Json>): unknown {
  if (Array.isArray(value)) return value.map((item) => hoistNamed(item, components))
  if (!value || typeof value !== 'object') return value
  const { [COMPONENT_NAME]: name, ...rest } = value as Json
  const inner = Object.fromEntries(Object.entries(rest).map(([key, item]) => [key, hoistNamed(item, components)]))
  if (typeof name !== 'string') return inner
  const known = components[name]
  if (known && JSON.stringify(known) !== JSON.stringify(inner))
    throw new Error(`Two different schemas are named ${name} in the OpenAPI document`)
  components[name] = inner
  return { $ref: `#/components/schemas/${name}` }
}

function sortedByName(schemas: Record<string, Json>): Record<string, Json> {
  return Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)))
}
