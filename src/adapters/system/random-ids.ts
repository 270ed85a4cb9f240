import type { IdGenerator } from '../../application/ports/ids'

export class RandomIds implements IdGenerator {
  next(): string {
    return crypto.randomUUID()
  }
  nextInTimeOrder(): string {
    return Bun.randomUUIDv7()
  }
}
