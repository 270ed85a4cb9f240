/** Time behind a port, so tests can fix it and expiry can be tested. */
export interface Clock {
  now(): Date
}
