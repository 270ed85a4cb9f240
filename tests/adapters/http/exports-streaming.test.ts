import { describe, expect, spyOn, test } from 'bun:test'
import type { UnnumberedNeed } from '../../../src/application/ports/repositories/need-repository'
import { PORTS } from '../../../src/main/container'
import { aNeed } from '../../support/builders'
import { api, createNeed, openExportsServer, pantry, tokens, world } from './exports-support'

// docs/api/exports-import.md "Exports": the file is streamed batch by batch as the client takes it, so a failure part way
// breaks the transfer rather than ending a short file, over real HTTP (SQLite, and PostgreSQL with
// TEST_DATABASE=postgres).
openExportsServer()

describe('a database failure during an export', () => {
  /** Makes the `failing`th read of needs (from 1) fail, for one export; the reads before it answer full batches. */
  async function exportFailingAt(failing: number) {
    await createNeed({ partnerId: pantry.id })
    const repository = world.repositories.needs
    const [need] = await repository.listAfter(world.organizationId, {}, undefined, 1)
    let reads = 0
    const spy = spyOn(repository, 'listAfter').mockImplementation(async (_organizationId, _filter, _after, limit) => {
      if (++reads === failing) throw new Error('the database went away')
      return Array.from({ length: limit }, () => need!)
    })
    try {
      const response = await fetch(`${api.url}/api/needs/export?format=csv`, { headers: { authorization: `Bearer ${tokens.admin}` } })
      return {
        response,
        body: await response.text().then(
          (text) => ({ text }),
          (error: unknown) => ({ error }),
        ),
      }
    } finally {
      spy.mockRestore()
    }
  }

  test('before the first batch: a problem answer, not a file', async () => {
    const { response, body } = await exportFailingAt(1)
    expect(response.status).toBe(500)
    expect(response.headers.get('content-type')).toStartWith('application/problem+json')
    expect(body).toHaveProperty('text')
  })

  test('after the first batch: the transfer breaks, so the file is never taken for whole', async () => {
    const { response, body } = await exportFailingAt(2)
    expect(response.status).toBe(200)
    expect(body).toHaveProperty('error')
    expect(api.logs.some((line) => line.includes('export cut short') && line.includes('the database went away'))).toBe(true)
  })
})

describe('a large export', () => {
  // About 40 MB of CSV, far more than the sockets between the two ends buffer (a few MB), so a server that ran
  // ahead of its client would be seen reading most batches: 5,000 needs of 8 KB (10 batches). Few rows keep the
  // seeding short on a busy machine; the bytes are what the test needs.
  const [count, noteSize] = [5_000, 8_000]

  test('streams: batches are read as the client takes the file, and every need arrives once, in order', async () => {
    const large = await world.otherOrganization()
    const partner = large.defaultPartner
    const note = 'n'.repeat(noteSize)
    // Each need's mark, in its custom fields, tells the order the file gives them in.
    const needs: UnnumberedNeed[] = Array.from({ length: count }, (_, i) => {
      const { referenceNumber: _numbered, ...need } = aNeed({
        organizationId: large.organizationId,
        partnerId: partner.id,
        customFields: { mark: `BIG-${i}`, note },
        createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000),
      })
      return need
    })
    // Batches of 500, one statement and one unit each: row by row, the seeding alone took most of the budget.
    for (let from = 0; from < count; from += 500) {
      await large.container.get(PORTS.unitOfWork).run((r) => r.needs.insertMany(needs.slice(from, from + 500)))
    }
    const token = await api.tokenFor(large, 'org_admin')
    const reads = spyOn(world.repositories.needs, 'listAfter')
    const response = await fetch(`${api.url}/api/needs/export?format=csv`, { headers: { authorization: `Bearer ${token}` } })
    const reader = response.body!.getReader()
    try {
      const decoder = new TextDecoder()
      let text = decoder.decode((await reader.read()).value, { stream: true })
      // A client that stops reading: were the file built ahead of it, every batch would be read by now.
      await Bun.sleep(300)
      const batches = Math.ceil(count / 500) + 1
      expect(reads.mock.calls.length).toBeLessThan(batches / 2)
      for (let next = await reader.read(); !next.done; next = await reader.read()) text += decoder.decode(next.value, { stream: true })
      expect(reads).toHaveBeenCalledTimes(batches)
      // The marks in the order they came: parsing 40 MB of CSV here would take seconds.
      expect([...text.matchAll(/BIG-\d+/g)].map(([mark]) => mark)).toEqual(needs.map((_, i) => `BIG-${i}`).reverse())
    } finally {
      await reader.cancel()
      reads.mockRestore()
    }
  }, 30_000)
})
