import type { ComponentChildren } from 'preact'

/**
 * A table in its own region: named (and captioned) for assistive technology, and focusable, so the
 * keyboard can scroll its wide rows at phone width. `columns` are its headers; `actions`, when given, names
 * a last column of row buttons whose header is read but not shown.
 */
export function Table(props: { label: string; columns: string[]; actions?: string; children: ComponentChildren }) {
  return (
    <div class="table" role="region" aria-label={props.label} tabIndex={0}>
      <table>
        <caption class="visually-hidden">{props.label}</caption>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th scope="col" key={column}>
                {column}
              </th>
            ))}
            {props.actions && (
              <th scope="col">
                <span class="visually-hidden">{props.actions}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  )
}
