import { AesGcmSecretBox } from '../../adapters/security/aes-gcm-secret-box'
import { HmacAccessTokens } from '../../adapters/security/hmac-access-tokens'
import { MemoryRateLimiter } from '../../adapters/security/memory-rate-limiter'
import { RandomSecretTokens } from '../../adapters/security/random-secret-tokens'
import type { Clock } from '../../application/ports/clock'
import { bindings } from './area'
import { PORTS } from './ports'

/** Tokens, secrets and rate limits: the security adapters several areas and the HTTP edge use. */
export const security = bindings(({ config, bind }) => {
  bind(PORTS.accessTokens).toResolvedValue((clock: Clock) => new HmacAccessTokens(config.jwtSecret, clock), [PORTS.clock])
  bind(PORTS.secrets).toConstantValue(new RandomSecretTokens())
  bind(PORTS.secretBox).toConstantValue(new AesGcmSecretBox(config.dataEncryptionKey))
  const limiter = (limit: number) => (clock: Clock) => new MemoryRateLimiter(limit, clock)
  bind(PORTS.publicIntakeRateLimiter).toResolvedValue(limiter(config.publicIntakeRateLimit), [PORTS.clock])
  bind(PORTS.publicDirectoryRateLimiter).toResolvedValue(limiter(config.publicDirectoryRateLimit), [PORTS.clock])
  bind(PORTS.authRateLimiter).toResolvedValue(limiter(config.authRateLimit), [PORTS.clock])
  bind(PORTS.federationRateLimiter).toResolvedValue(limiter(config.federationRateLimit), [PORTS.clock])
})
