import { DomainError } from '../domain/errors'
import { ProviderError } from './ports/provider-error'

/** Every failure a use case reports on purpose: a broken rule of the domain, or a provider's refusal. */
export type ServiceError = DomainError | ProviderError

/** What kind of failure it is; the HTTP adapter gives each its status, and a kind without one does not compile. */
export type ErrorKind = ServiceError['kind']

export function isServiceError(error: unknown): error is ServiceError {
  return error instanceof DomainError || error instanceof ProviderError
}
