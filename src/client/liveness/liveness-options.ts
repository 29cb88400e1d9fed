/** How the client keeps up with an API that withdraws tools or goes into maintenance (`createClient({ liveness })`). */
export interface LivenessOptions {
  /**
  Shortest time between two revalidations of one service's manifest forced by its tools' answers
  (`404`, `410`, a `401`/`403` naming a scope the manifest does not give the tool), in milliseconds.
  A `404` is also an ordinary answer (an id that does not exist): a model probing ids must not turn
  every call into a second request. One per second per service per process bounds that cost to one
  conditional request (a `304` without a body when nothing changed) while a withdrawal is still found
  within a second. `client.revalidate` itself is not bounded (a change feed says something did change).

  @default 1000
  */
  minForcedRevalidationIntervalInMs?: number;
  /**
  Read the health resource a manifest names (`service.health`, spec section 7.21) before calls:
  refuse calls while it says `maintenance`, and let selection prefer healthy services among equals.
  `false` never requests it.

  @default true
  */
  health?: boolean;
}
