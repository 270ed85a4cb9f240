import type { Partner } from './api'

/** The partners a new need may go to, as a select's options: the archived ones take none. */
export function ActivePartnerOptions({ partners }: { partners: Partner[] }) {
  return (
    <>
      {partners
        .filter((partner) => !partner.isArchived)
        .map((partner) => (
          <option key={partner.id} value={partner.id}>
            {partner.name}
          </option>
        ))}
    </>
  )
}
