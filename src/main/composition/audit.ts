import { currentRequest } from '../../adapters/system/request-context'
import { AuditTrail } from '../../application/audit/audit-trail'
import { ListAuditEvents } from '../../application/audit/list-audit-events'
import { area } from './area'
import { PORTS } from './ports'

export const audit = area('audit', ({ bind, service }) => {
  bind(PORTS.currentRequest).toConstantValue(currentRequest)
  service(AuditTrail, [PORTS.unitOfWork, PORTS.clock, PORTS.ids, PORTS.currentRequest])
  return {
    list: service(ListAuditEvents, [PORTS.repositories]),
  }
})
