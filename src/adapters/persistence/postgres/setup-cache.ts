import type { Repositories } from '../../../application/ports/repositories'

/** How a transaction reads and checks an organization's setup version (setup-versions.ts). */
export interface SetupVersionsOf {
  /** The version now, or undefined when there is no such organization. */
  read(organizationId: string): Promise<string | undefined>
  /** Sent with the transaction's statements, not awaited: fails the transaction unless the version is still `version`. */
  check(organizationId: string, version: string): void
}

/** What one organization's partners and webhook subscriptions were at one setup version, by what was asked. */
interface Setup {
  version: string
  answers: Map<string, unknown>
}

/** The organizations kept at most: the oldest kept is dropped first. */
const MAX_ORGANIZATIONS = 1_000

/**
 * What this instance has read of organizations' partners and webhook subscriptions, each kept under the
 * organization's setup version read before it in the same transaction (migration 0020_setup_versions,
 * where triggers change the version with every change to either). A transaction that answers a read from
 * here sends a check of that version with its statements: should another instance (or this one) have
 * changed either since, the transaction fails and its work runs again with fresh reads
 * (`PostgresDatabase.run`). So a create of a need sends its partner and webhook reads as a check, not as
 * reads it must wait for, and its whole transaction is one round trip.
 */
export class SetupCache {
  private readonly setups = new Map<string, Setup>()

  /** One transaction's view of `repositories`: its reads of partners and of webhook subscribers answered from here when kept. */
  reading(repositories: Repositories, versions: SetupVersionsOf): SetupReads {
    return new SetupReads(this, repositories, versions)
  }

  /** The answer kept for `key` and the version it was read at, as a copy, or undefined. */
  kept(organizationId: string, key: string): { version: string; answer: unknown } | undefined {
    const setup = this.setups.get(organizationId)
    if (!setup?.answers.has(key)) return undefined
    return { version: setup.version, answer: structuredClone(setup.answers.get(key)) }
  }

  /**
   * Keeps `answer`, read at `version`. Versions are tokens, not ordered: one other than the version kept
   * replaces it, and should it be the older one, its next check fails and the answers are read again.
   */
  keep(organizationId: string, version: string, key: string, answer: unknown): void {
    let setup = this.setups.get(organizationId)
    if (setup?.version !== version) {
      setup = { version, answers: new Map() }
      this.setups.delete(organizationId)
      this.setups.set(organizationId, setup)
      if (this.setups.size > MAX_ORGANIZATIONS) this.setups.delete(this.setups.keys().next().value!)
    }
    setup.answers.set(key, structuredClone(answer))
  }

  forget(organizationIds: Iterable<string>): void {
    for (const id of organizationIds) this.setups.delete(id)
  }
}

/**
 * The reads a transaction may answer from the cache, each kept by its arguments after the organization's
 * id; any other call to their repositories counts as a change.
 */
const CACHED = { partners: ['findById', 'listAll'], webhookEndpoints: ['subscribedTo'] } as const

/**
 * One transaction's reads of partners and webhook subscriptions. What it read from the database is kept
 * only once the transaction has committed (`committed`), so that nothing it wrote and rolled back is ever
 * kept; once it has called anything else of those repositories (a change, or a read the cache does not
 * keep), it reads from the database only, so it always sees its own changes.
 */
export class SetupReads {
  readonly repositories: Repositories
  /** The organizations whose kept answers this transaction used: forgotten should their check fail. */
  readonly used = new Set<string>()
  /** Each organization and version this transaction has sent a check of. */
  private readonly checked = new Set<string>()
  private readonly read: Array<{ organizationId: string; version: string; key: string; answer: unknown }> = []
  private changed = false

  constructor(
    private readonly cache: SetupCache,
    repositories: Repositories,
    private readonly versions: SetupVersionsOf,
  ) {
    this.repositories = {
      ...repositories,
      partners: this.cached(repositories.partners, CACHED.partners),
      webhookEndpoints: this.cached(repositories.webhookEndpoints, CACHED.webhookEndpoints),
    }
  }

  /** Keeps what the transaction read, once it has committed. */
  committed(): void {
    for (const { organizationId, version, key, answer } of this.read) this.cache.keep(organizationId, version, key, answer)
  }

  private cached<R extends object>(repository: R, methods: readonly string[]): R {
    return new Proxy(repository, {
      get: (target, property, receiver) => {
        const value = Reflect.get(target, property, receiver)
        if (typeof value !== 'function') return value
        if (typeof property === 'string' && methods.includes(property)) {
          return (organizationId: string, ...asked: string[]) =>
            this.answer(organizationId, [property, ...asked].join(':'), () => value.call(target, organizationId, ...asked))
        }
        return (...args: unknown[]) => {
          this.changed = true
          return value.apply(target, args)
        }
      },
    })
  }

  private async answer(organizationId: string, key: string, load: () => Promise<unknown>): Promise<unknown> {
    if (this.changed) return load()
    const kept = this.cache.kept(organizationId, key)
    if (kept) {
      // Once per version: another transaction may have kept a newer one since this one's first answer.
      const checking = `${organizationId} ${kept.version}`
      if (!this.checked.has(checking)) this.versions.check(organizationId, kept.version)
      this.checked.add(checking)
      this.used.add(organizationId)
      return kept.answer
    }
    // The version first: what is read after it is at least as new, so a check of it never passes stale answers.
    const [version, answer] = await Promise.all([this.versions.read(organizationId), load()])
    if (version !== undefined && !this.changed) this.read.push({ organizationId, version, key, answer })
    return answer
  }
}
