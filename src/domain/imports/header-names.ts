// docs/api/exports-import.md "Import": "Header names"

/**
 * The names spreadsheets commonly give the columns an import reads, besides each column's own name: one
 * table for both imports, and for the console's mapping step (the OpenAPI document carries it). Compared as
 * `headerKey`s, so "First Name", "first_name" and "FIRST-NAME" are one name.
 */
export const HEADER_ALIASES: Readonly<Record<string, readonly string[]>> = {
  firstName: ['First Name', 'First', 'Given Name', 'Forename', 'Nombre'],
  lastName: ['Last Name', 'Last', 'Surname', 'Family Name', 'Apellido', 'Apellidos'],
  phone: ['Phone Number', 'Telephone', 'Tel', 'Mobile', 'Mobile Number', 'Mobile Phone', 'Cell', 'Cell Phone', 'Teléfono', 'Celular'],
  email: ['E-mail', 'Email Address', 'E-mail Address', 'Mail', 'Correo', 'Correo Electrónico'],
  dateOfBirth: ['Date of Birth', 'DOB', 'Birth Date', 'Birthdate', 'Birthday', 'Fecha de Nacimiento'],
  addressStreet: ['Street', 'Street Address', 'Address', 'Address Line 1', 'Address 1', 'Dirección'],
  addressCity: ['City', 'Town', 'Ciudad'],
  addressState: ['State', 'Province', 'Region', 'Estado'],
  addressZip: ['Zip', 'Zip Code', 'ZIP+4', 'Postal Code', 'Postcode', 'Código Postal'],
  partnerId: ['Partner ID'],
  // A partner named in words is read by its name (a partnerId cell may hold a name too).
  partnerName: ['Partner', 'Agency'],
  description: ['Request', 'Need', 'Details'],
  isConfidential: ['Confidential'],
  createdAt: ['Created', 'Created On', 'Date', 'Date Requested', 'Request Date', 'Fecha'],
}

/** A header name as compared: letters and digits only, accents dropped, any case. */
export function headerKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '')
}

/** The column of `columns` a header names, by the column's own name or one of its aliases; undefined for none. */
export function columnNamed(header: string, columns: readonly string[]): string | undefined {
  const key = headerKey(header)
  return columns.find((column) => headerKey(column) === key || (HEADER_ALIASES[column] ?? []).some((alias) => headerKey(alias) === key))
}
