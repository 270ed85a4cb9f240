import { GetNeedsReport } from '../../application/reports/get-needs-report'
import { GetServedReport } from '../../application/reports/get-served-report'
import { area } from './area'
import { PORTS } from './ports'

export const reports = area('reports', ({ service }) => ({
  needs: service(GetNeedsReport, [PORTS.repositories, PORTS.clock]),
  served: service(GetServedReport, [PORTS.repositories]),
}))
