import type { UnitOfWork } from '../ports/unit-of-work'

/** Needs indexed per transaction: the writer is never held long, however many needs were on file. */
const BATCH = 500

/**
 * Indexes the text of the needs on file when need search came (docs/api/needs.md "Search and sort"), run by
 * the worker until none is left; afterwards each pass finds the backlog empty in one read. Answers how many
 * needs it indexed.
 */
export class IndexNeedSearchBacklog {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  async execute(): Promise<number> {
    let indexed = 0
    for (let batch = BATCH; batch === BATCH; indexed += batch) {
      batch = await this.unitOfWork.run((r) => r.needs.indexTextBacklog(BATCH))
    }
    return indexed
  }
}
