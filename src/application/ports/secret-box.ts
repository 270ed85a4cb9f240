/** Authenticated encryption for secrets kept in the database (AES-256-GCM under DATA_ENCRYPTION_KEY). */
export interface SecretBox {
  seal(plaintext: string): string
  /** Throws when the sealed text was altered or sealed under another key. */
  open(sealed: string): string
}
