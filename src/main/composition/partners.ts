import { AuditTrail } from '../../application/audit/audit-trail'
import { CreatePartner } from '../../application/partners/create-partner'
import { ListPartners } from '../../application/partners/list-partners'
import { UpdatePartner } from '../../application/partners/update-partner'
import { area } from './area'
import { PORTS } from './ports'

export const partners = area('partners', ({ service }) => ({
  list: service(ListPartners, [PORTS.repositories]),
  create: service(CreatePartner, [PORTS.unitOfWork, PORTS.clock, PORTS.ids, AuditTrail]),
  update: service(UpdatePartner, [PORTS.unitOfWork, AuditTrail]),
}))
