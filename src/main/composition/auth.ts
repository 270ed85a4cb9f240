import { InProcessDeferredWork } from '../../adapters/system/in-process-deferred-work'
import { AuditTrail } from '../../application/audit/audit-trail'
import { AcceptInvite } from '../../application/auth/accept-invite'
import { Authenticate } from '../../application/auth/authenticate'
import { Login } from '../../application/auth/login'
import { Logout } from '../../application/auth/logout'
import { ReadInvitation } from '../../application/auth/read-invitation'
import { PasswordResetLinks, RequestPasswordReset, ResetPassword } from '../../application/auth/password-reset'
import { RefreshSession } from '../../application/auth/refresh-session'
import { TokenPairIssuer } from '../../application/auth/token-pair'
import { Outbox } from '../../application/messaging/outbox'
import type { Logger } from '../../application/ports/logger'
import { area } from './area'
import { PORTS } from './ports'

const { repositories, unitOfWork, passwords, accessTokens, secrets, clock, ids } = PORTS

export const auth = area('auth', ({ bind, service }) => {
  bind(PORTS.deferredWork).toResolvedValue((logger: Logger) => new InProcessDeferredWork(logger), [PORTS.logger])
  service(TokenPairIssuer, [accessTokens, secrets, clock, ids])
  service(PasswordResetLinks, [unitOfWork, Outbox, secrets, clock, ids, PORTS.publicBaseUrl, AuditTrail, PORTS.sendLimits])
  return {
    authenticate: service(Authenticate, [repositories, accessTokens]),
    login: service(Login, [repositories, unitOfWork, passwords, TokenPairIssuer, clock, AuditTrail]),
    refresh: service(RefreshSession, [unitOfWork, secrets, TokenPairIssuer, clock, ids, AuditTrail]),
    logout: service(Logout, [unitOfWork, secrets, clock, AuditTrail]),
    acceptInvite: service(AcceptInvite, [unitOfWork, passwords, secrets, TokenPairIssuer, clock, AuditTrail]),
    readInvitation: service(ReadInvitation, [repositories, secrets, clock]),
    requestPasswordReset: service(RequestPasswordReset, [PORTS.deferredWork, PasswordResetLinks]),
    resetPassword: service(ResetPassword, [unitOfWork, passwords, secrets, TokenPairIssuer, clock, AuditTrail]),
  }
})
