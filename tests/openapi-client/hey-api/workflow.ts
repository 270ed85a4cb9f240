import { createClient } from './client'
import { addNote, createNeed, getNeed, listPartners } from './sdk.gen'
import type { Interaction, Need, Problem, ValidationProblem } from './types.gen'

// A staff client written against the SDK @hey-api/openapi-ts generates from the served OpenAPI document, a
// generator nobody here wrote. tests/adapters/http/openapi-sdk.test.ts generates the SDK beside a copy of this
// file, type-checks both and runs this: if the document stops serving generators, it fails there.

/** Records a need, reads it back by its reference number and adds a note: what an intake screen does. */
export async function recordAndNote(baseUrl: string, accessToken: string) {
  const client = createClient({ baseUrl, auth: () => accessToken })

  const partners = await listPartners({ client, query: { limit: 1 } })
  const partnerId = partners.data?.[0]?.id
  if (!partnerId) throw new Error(`no partner: ${partners.error?.detail}`)

  const created = await createNeed({ client, body: { partnerId, customFields: { firstName: 'Ada', phone: '+15550100177' } } })
  if (!created.data) throw new Error(`create: ${created.error?.detail}`)
  const reference: string = created.data.referenceNumber

  const read = await getNeed({ client, path: { id: reference } })
  const need: Need | undefined = read.data
  const noted = await addNote({ client, path: { id: reference }, body: { content: 'Called back; delivery on Friday' } })
  const note: Interaction | undefined = noted.data
  const refused = await addNote({ client, path: { id: reference }, body: { content: '' } })
  const problem: Problem | ValidationProblem | undefined = refused.error

  return {
    sameNeed: need?.id === created.data.id,
    status: need?.status,
    note: note?.content,
    refused: { status: problem?.status, fields: problem && 'errors' in problem ? problem.errors?.map((e) => e.path) : [] },
    totalPartners: Number(partners.response?.headers.get('x-total-count')),
  }
}
