import type { PasswordHasher } from '../../application/ports/password-hasher'

/** argon2id through Bun's built-in implementation (docs/api/access.md "Tokens"). */
export class Argon2PasswordHasher implements PasswordHasher {
  /** Lower costs make tests fast; production uses Bun's defaults. */
  constructor(private readonly cost: { memoryCost?: number; timeCost?: number } = {}) {}

  hash(password: string): Promise<string> {
    return Bun.password.hash(password, { algorithm: 'argon2id', ...this.cost })
  }

  async verify(password: string, hash: string): Promise<boolean> {
    try {
      return await Bun.password.verify(password, hash)
    } catch {
      return false // a malformed stored hash never lets anyone in
    }
  }
}
