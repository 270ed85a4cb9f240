/** The request the running code serves, as the edge that took it knows it (HTTP: its X-Request-Id). */
export interface CurrentRequest {
  /** Absent outside a request (the worker, the command line). */
  id(): string | undefined
}
