// A decision record's id: a UUIDv7 (time-ordered, and telling when it was made) of the moment the answer was asked.
import { randomUUID } from 'node:crypto'

/**
 * The random bits come from randomUUID, for which Node draws entropy in batches: the uuid package's v7 asked the
 * system for 16 bytes on every call, 5% of the Advice API's CPU with records on (profiled with bench:decisions).
 */
export function decisionIdAt(msecs: number): string {
  const time = msecs.toString(16).padStart(12, '0')
  // randomUUID gives xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx: its last 74 random bits, with the variant V, follow the 7.
  return `${time.slice(0, 8)}-${time.slice(8)}-7${randomUUID().slice(15)}`
}
