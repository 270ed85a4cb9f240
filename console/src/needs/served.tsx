import { useEffect, useState } from 'preact/hooks'
import type { components } from '../../schema'
import { client } from '../shared/api'
import { ExportButton } from '../shared/exports'
import { Answered, failure } from '../shared/outcome'
import { t } from '../shared/i18n'
import { href } from '../shared/router'
import { authorized } from '../shared/session'

type ServedReport = components['schemas']['ServedReport']

/** The inbox's address of the needs behind a figure: those created or resolved in the period's instants (and of a partner). */
export function needsOf(what: 'created' | 'resolved', period: { since: string; until: string }, partner?: string): string {
  return href(['needs'], { [`${what}From`]: period.since, [`${what}To`]: period.until, partner })
}

/** A figure that opens the inbox on the needs it counts. */
export function FigureLink({ value, to }: { value: number; to: string }) {
  return <a href={to}>{value}</a>
}

/**
 * The people and households served in the period (docs/api/needs.md "People served"), in the organization's days: in all
 * and per partner, each figure a link to the resolved needs behind it; its CSV file to download.
 */
export function Served({ from, to }: { from: string; to: string }) {
  const [report, setReport] = useState<ServedReport | string>()
  useEffect(() => {
    setReport(undefined)
    void authorized(() => client.GET('/api/reports/served', { params: { query: { from, to } } })).then(({ data, error, response }) =>
      setReport(data ?? failure(response.status, error).text),
    )
  }, [from, to])
  return (
    <section aria-labelledby="served-title" class="served">
      <h2 id="served-title">{t.served}</h2>
      <Answered answer={report}>
        {(report) => (
          <>
            <p class="meta">{t.servedShown(report.timeZone)}</p>
            <table>
              <caption class="visually-hidden">{t.served}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.partner}</th>
                  <th scope="col">{t.people}</th>
                  <th scope="col">{t.households}</th>
                </tr>
              </thead>
              <tbody>
                {[
                  { partnerId: undefined, partnerName: t.allPartners, people: report.people, households: report.households },
                  ...report.byPartner,
                ].map((row) => (
                  <tr key={row.partnerId ?? ''}>
                    <th scope="row">{row.partnerName}</th>
                    <td>
                      <FigureLink value={row.people} to={needsOf('resolved', report, row.partnerId)} />
                    </td>
                    <td>
                      <FigureLink value={row.households} to={needsOf('resolved', report, row.partnerId)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <ExportButton
              label={t.exportServed}
              call={() => client.GET('/api/reports/served/export', { params: { query: { format: 'csv', from, to } }, parseAs: 'blob' })}
            />
          </>
        )}
      </Answered>
    </section>
  )
}
