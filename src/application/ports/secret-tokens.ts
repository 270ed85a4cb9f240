/** Opaque secrets handed to clients (refresh and invitation tokens) and stored only as hashes. */
export interface SecretTokens {
  generate(): string
  /** A deterministic, non-reversible digest to store and look the secret up by. */
  digest(secret: string): string
}
