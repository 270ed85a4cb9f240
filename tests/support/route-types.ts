import type { Permission } from '../../src/domain/auth/permissions'

// The shapes of tests/support/routes.ts, the tests' one list of routes: what a line says and what its call is made of.

/** A member holding each of these permissions (tests/support/permissions.ts), any member, anyone, or Twilio (its signature). */
export type Access = Permission[] | 'member' | 'anyone' | 'twilio'
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'
/** A JSON document, one that may be left out, a CSV file, Twilio's form parameters, or nothing. */
export type Body = 'json' | 'optional json' | 'csv' | 'form' | 'none'

export interface Call {
  method: Method
  path: string
  body?: unknown
  /** A CSV file sent as the body instead (an import). */
  csv?: string
}

/** What the calls are made of: a server's records, and what seeds a record a call consumes (permissions-support.ts). */
export interface Records {
  partnerId: string
  needId: string
  /** A service of the partner, which its partner_admin manages. */
  serviceId: string
  constituentId: string
  volunteerId: string
  unconfirmedId: string
  settings: { name: string; slug: string }
  smtpKey: string
  unique(): string
  newConstituent(): Promise<string>
  newVolunteer(): Promise<string>
  pairToMerge(): Promise<{ sourceConstituentId: string; targetConstituentId: string }>
  openMatch(): Promise<string>
  newEndpoint(): Promise<string>
  theEndpoint(): Promise<string>
  /** A text on no need of its own (attaching one consumes it). */
  newMessage(): Promise<string>
}

export interface Route {
  method: Method
  path: string
  access: Access
  body: Body
  errors: number[]
  /** A member's route: the status of an allowed call, and the call (its path and body; the route's path without them). */
  success?: number
  call?: (r: Records) => Promise<Partial<Call>> | Partial<Call>
}
