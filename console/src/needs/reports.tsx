import { useEffect, useState } from 'preact/hooks'
import type { components } from '../../schema'
import { client, STATUSES } from '../shared/api'
import { Answered, failure } from '../shared/outcome'
import { t } from '../shared/i18n'
import { go } from '../shared/router'
import { authorized } from '../shared/session'
import { FigureLink, needsOf, Served } from './served'

type NeedsReport = components['schemas']['NeedsReport']

const DAY_MS = 86_400_000
const dayOf = (at: Date) => at.toISOString().slice(0, 10)

/**
 * The needs report (docs/api/needs.md "Reports") of a period, four weeks to today unless the address names one: the
 * figures (opened and resolved link to their needs), small charts of the weeks, the statuses and the partners, each
 * drawn for the eye and given as a table to screen readers (the drawing is hidden from them); then the people served.
 * It prints as it reads (the print stylesheet leaves the forms and buttons out).
 */
export function Reports({ query }: { query: URLSearchParams }) {
  const to = query.get('to') ?? dayOf(new Date())
  const from = query.get('from') ?? dayOf(new Date(Date.parse(`${to}T00:00:00Z`) - 27 * DAY_MS))
  const [report, setReport] = useState<NeedsReport | string>()
  useEffect(() => {
    document.title = `${t.reports} · ${t.appName}`
  }, [])
  useEffect(() => {
    setReport(undefined)
    void authorized(() => client.GET('/api/reports/needs', { params: { query: { from, to } } })).then(({ data, error, response }) =>
      setReport(data ?? failure(response.status, error).text),
    )
  }, [from, to])

  function show(event: Event) {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    go(['reports'], { from: String(form.get('from')), to: String(form.get('to')) })
  }

  return (
    <>
      <h1>{t.reports}</h1>
      <form class="filters" onSubmit={show} aria-label={t.period}>
        <label>
          {t.from}
          <input type="date" name="from" value={from} required />
        </label>
        <label>
          {t.to}
          <input type="date" name="to" value={to} required />
        </label>
        <button type="submit">{t.show}</button>
      </form>
      <button type="button" class="secondary" onClick={() => print()}>
        {t.print}
      </button>
      {/* The people served once the period is known good: a refused period is said once. */}
      <Answered answer={report}>
        {(report) => (
          <>
            <Figures report={report} />
            <Served from={from} to={to} />
          </>
        )}
      </Answered>
    </>
  )
}

function Figures({ report }: { report: NeedsReport }) {
  return (
    <>
      <p role="status">{t.periodShown(report.from, report.to)}</p>
      <dl class="fields">
        <dt>{t.opened}</dt>
        <dd>
          <FigureLink value={report.opened} to={needsOf('created', report)} />
        </dd>
        <dt>{t.resolved}</dt>
        <dd>
          <FigureLink value={report.resolved} to={needsOf('resolved', report)} />
        </dd>
        <dt>{t.openNow}</dt>
        <dd>{report.open}</dd>
        <dt>{t.overdueNow}</dt>
        <dd>{report.overdue}</dd>
      </dl>
      <BarChart
        caption={t.texts.figures}
        head={t.texts.figuresHead}
        series={[t.texts.figuresCount]}
        rows={(['received', 'sent', 'delivered', 'failed'] as const).map((kind) => ({
          label: t.texts.figureNames[kind],
          values: [report.texts[kind]],
        }))}
      />
      <BarChart
        caption={t.byWeek}
        head={t.weekOf}
        series={[t.opened, t.resolved]}
        rows={report.byWeek.map((w) => ({ label: w.weekStart, values: [w.opened, w.resolved] }))}
      />
      <BarChart
        caption={t.byStatus}
        head={t.status}
        series={[t.needs]}
        rows={STATUSES.map((status) => ({ label: t.statuses[status], values: [report.byStatus[status]] }))}
      />
      <BarChart
        caption={t.byPartner}
        head={t.partner}
        series={[t.opened, t.resolved, t.openNow, t.overdueNow]}
        rows={report.byPartner.map((p) => ({
          label: p.partnerName,
          note: t.medianShort(p.medianHoursToResolve),
          values: [p.opened, p.resolved, p.open, p.overdue],
        }))}
        extra={{ name: t.medianHours, values: report.byPartner.map((p) => (p.medianHoursToResolve ?? t.notShown).toString()) }}
      />
    </>
  )
}

/** Colours of the series, told apart by the legend's order too. */
const COLOURS = ['#0b5394', '#38761d', '#b45f06', '#990000']
const BAR = 14
const LABEL_WIDTH = 160
const CHART_WIDTH = 560

interface ChartProps {
  caption: string
  head: string
  series: string[]
  /** `note`: drawn under the label (the table has it in a column of its own). */
  rows: Array<{ label: string; note?: string; values: number[] }>
  /** A column of the table only (not drawn): the partners' medians. */
  extra?: { name: string; values: string[] }
}

/** Horizontal bars, one group per row, drawn for the eye; the same figures as a table for screen readers. */
function BarChart({ caption, head, series, rows, extra }: ChartProps) {
  const most = Math.max(1, ...rows.flatMap((r) => r.values))
  const group = Math.max(2, series.length) * BAR + 10
  const scale = (CHART_WIDTH - LABEL_WIDTH - 48) / most
  return (
    <figure class="chart">
      <figcaption>
        <h2>{caption}</h2>
      </figcaption>
      {series.length > 1 && (
        <p class="meta" aria-hidden="true">
          {series.map((name, i) => (
            <span key={name} class="legend">
              <svg width="12" height="12" aria-hidden="true">
                <rect width="12" height="12" fill={COLOURS[i]} />
              </svg>{' '}
              {name}
            </span>
          ))}
        </p>
      )}
      <svg aria-hidden="true" width="100%" viewBox={`0 0 ${CHART_WIDTH} ${Math.max(group, rows.length * group)}`}>
        {rows.map((row, r) => (
          <g key={row.label} transform={`translate(0 ${r * group})`}>
            <text x="0" y={BAR} font-size="12">
              {row.label}
            </text>
            {row.note && (
              <text x="0" y={2 * BAR} font-size="10">
                {row.note}
              </text>
            )}
            {row.values.map((value, s) => (
              <g key={series[s]}>
                <rect x={LABEL_WIDTH} y={s * BAR} width={value * scale} height={BAR - 2} fill={COLOURS[s]} />
                <text x={LABEL_WIDTH + value * scale + 4} y={s * BAR + BAR - 3} font-size="11">
                  {value}
                </text>
              </g>
            ))}
          </g>
        ))}
      </svg>
      <table class="visually-hidden">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{head}</th>
            {series.map((name) => (
              <th key={name} scope="col">
                {name}
              </th>
            ))}
            {extra && <th scope="col">{extra.name}</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              {row.values.map((value, s) => (
                <td key={series[s]}>{value}</td>
              ))}
              {extra && <td>{extra.values[r]}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}
