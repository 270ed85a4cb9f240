/** An organization's Ed25519 keys (docs/referrals.md "The channel"): raw public keys and PKCS #8 private keys, base64. */
export interface FederationKeys {
  generate(): { publicKey: string; privateKey: string }
  /** The base64 Ed25519 signature of `data`. */
  sign(privateKey: string, data: string): string
  /** False for a malformed key or signature as for a wrong one. */
  verify(publicKey: string, data: string, signature: string): boolean
  /** SHA-256 of the raw public key, base64url: what a pairing code carries. */
  fingerprint(publicKey: string): string
}

/** An answer of a partner's instance. */
export interface PeerAnswer {
  status: number
  body: string
}

/**
 * Posts to a partner's instance under the webhook destination rules (WEBHOOK_ALLOWED_HOSTS,
 * WEBHOOK_BLOCK_PRIVATE_HOSTS). Throws ProviderError when the rules refuse the host (not retryable) or no
 * answer came (retryable, outcome unknown); any answer that came is answered, whatever its status.
 */
export interface FederationTransport {
  /** Throws InvalidError at `path` when the rules refuse the URL's host; nothing is contacted. */
  check(url: string, path: string): Promise<void>
  post(url: string, headers: Record<string, string>, body: string): Promise<PeerAnswer>
}
