import type { ComponentChildren } from 'preact'
import type { Member, Need, Partner, Profile } from '../shared/api'
import type { paths } from '../../schema'
import { formatDate, memberName, partnerName } from '../shared/data'
import { language, t } from '../shared/i18n'
import { go, href } from '../shared/router'
import { useShortcut } from '../shared/shortcuts'
import './inbox.css'

/** The orders the list takes (`?sort=`), a field descending with a leading `-`. */
export type Sort = NonNullable<NonNullable<paths['/api/needs']['get']['parameters']['query']>['sort']>
const SORTS: readonly Sort[] = ['createdAt', '-createdAt', 'dueDate', '-dueDate', 'status', '-status']

/** The address's sort (`sort=-dueDate`), or none when it names none the list takes. */
export const sortOf = (query: URLSearchParams): Sort | undefined => SORTS.find((sort) => sort === query.get('sort'))

/** Open and past its due date by this browser's clock, as the service counts overdue by its own. */
const isOverdue = (need: Need, now: number) => need.status !== 'RESOLVED' && need.dueDate !== undefined && Date.parse(need.dueDate) < now

/** Moves the keyboard to the next (1) or previous (-1) need's link of the table, from the one it is on or the top. */
function focusNeed(step: 1 | -1) {
  const links = [...document.querySelectorAll<HTMLAnchorElement>('.needs-table tbody tr td:first-child a')]
  const at = links.indexOf(document.activeElement as HTMLAnchorElement)
  links[at < 0 ? 0 : Math.min(Math.max(at + step, 0), links.length - 1)]?.focus()
}

/**
 * The needs as a table whose sortable headers are links to the same list in that order (again: the other
 * way); at phone width each row is a card of labelled fields (inbox.css), so nothing is cut off.
 */
export function NeedsTable(props: {
  needs: Need[]
  sort: Sort | undefined
  /** The sort the list is in when none is asked: soonest due first with the overdue filter. */
  defaultSort: Sort
  filters: Record<string, string | undefined>
  partners: Partner[]
  members: Member[]
  profile: Profile | undefined
  /** A last column of each need's box for the bulk change, for who may change needs. */
  select?: (need: Need) => ComponentChildren
}) {
  const current = props.sort ?? props.defaultSort
  const now = Date.now()
  useShortcut('j', t.shortcuts.nextNeed, () => focusNeed(1))
  useShortcut('k', t.shortcuts.previousNeed, () => focusNeed(-1))
  const header = (label: string, field?: 'createdAt' | 'dueDate' | 'status') => {
    if (!field) return <th scope="col">{label}</th>
    const direction = current === field ? 'ascending' : current === `-${field}` ? 'descending' : undefined
    const next = direction === 'ascending' ? `-${field}` : field
    return (
      <th scope="col" aria-sort={direction}>
        <a href={href(['needs'], { ...props.filters, sort: next })}>
          {label}
          <span class="visually-hidden">{t.inboxSearch.sort}</span>
          <span aria-hidden="true">{direction === 'ascending' ? ' ▲' : direction === 'descending' ? ' ▼' : ''}</span>
        </a>
      </th>
    )
  }
  const cell = (label: string, content: ComponentChildren) => <td data-label={label}>{content}</td>
  return (
    <div class="table needs-table" role="region" aria-label={t.needs} tabIndex={0}>
      <table>
        <caption class="visually-hidden">{t.needs}</caption>
        <thead>
          <tr>
            {header(t.reference)}
            {header(t.status, 'status')}
            {header(t.partner)}
            {header(t.assignee)}
            {header(t.due, 'dueDate')}
            {header(t.created, 'createdAt')}
            {props.select && header(t.bulk.select)}
          </tr>
        </thead>
        <tbody>
          {props.needs.map((need) => (
            <tr key={need.id} class={isOverdue(need, now) ? 'overdue' : undefined}>
              {cell(t.reference, <a href={href(['needs', need.referenceNumber])}>{need.referenceNumber}</a>)}
              {cell(
                t.status,
                <>
                  {t.statuses[need.status]}
                  {need.needsAttention && <strong class="overdue-mark"> {t.texts.attentionMark}</strong>}
                </>,
              )}
              {cell(t.partner, partnerName(props.partners, need.partnerId))}
              {cell(t.assignee, memberName(props.members, props.profile, need.assignedTo, t))}
              {cell(
                t.due,
                <>
                  {formatDate(need.dueDate, language)}
                  {isOverdue(need, now) && <strong class="overdue-mark"> {t.inboxSearch.overdue}</strong>}
                </>,
              )}
              {cell(t.created, formatDate(need.createdAt, language))}
              {props.select && cell(t.bulk.select, props.select(need))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** "Go to page" N of `pages`: the list's filters and sort kept. */
export function PageJump(props: { page: number; pages: number; filters: Record<string, string | undefined> }) {
  if (props.pages <= 1) return null
  return (
    <form
      class="page-jump"
      onSubmit={(event) => {
        event.preventDefault()
        const asked = Math.trunc(Number(new FormData(event.currentTarget).get('page')))
        if (asked >= 1) go(['needs'], { ...props.filters, page: String(Math.min(asked, props.pages)) })
      }}
    >
      <label for="page-number">{t.inboxSearch.goToPage}</label>
      <input id="page-number" name="page" type="number" min={1} max={props.pages} defaultValue={String(props.page)} inputMode="numeric" />
      <button type="submit">{t.inboxSearch.go}</button>
    </form>
  )
}
