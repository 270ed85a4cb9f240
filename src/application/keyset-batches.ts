import type { Keyset } from '../domain/shared/page'

/** How many records an export reads at once: few enough to hold, many enough that a query's cost is spread. */
export const EXPORT_BATCH_SIZE = 500

/**
 * A list's records batch after batch, each read by keyset after the last one's final record, and only when
 * the consumer asks for it: a slow reader holds one batch, never the list (docs/api/exports-import.md "Exports").
 */
export async function* keysetBatches<T extends Keyset>(
  read: (after: Keyset | undefined, limit: number) => Promise<T[]>,
  size = EXPORT_BATCH_SIZE,
): AsyncGenerator<T[]> {
  let after: Keyset | undefined
  for (;;) {
    const batch = await read(after, size)
    if (batch.length > 0) yield batch
    if (batch.length < size) return
    after = batch.at(-1)
  }
}
