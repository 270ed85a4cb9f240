/** One holder at a time, in arrival order: serializes transactions on a single connection or store. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve()

  async lock<T>(work: () => Promise<T>): Promise<T> {
    const previous = this.tail
    let release!: () => void
    this.tail = new Promise<void>((resolve) => (release = resolve))
    await previous
    try {
      return await work()
    } finally {
      release()
    }
  }
}
