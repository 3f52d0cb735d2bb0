// pg-boss over postgres.js, for the embedded database on its worker thread, where the app's one connection is the only
// way in. pg-boss writes for node-postgres: parameters are sent as node-postgres would send them (drizzle has told
// postgres.js to pass dates and JSON through as text, so they are made text here). A statement without parameters
// may be a block of several (pg-boss's migrations, its BEGIN … COMMIT sections), which postgres.js sends only as a
// simple query; it gets the connection to itself, and a block that fails is rolled back, so that no later statement
// lands in an aborted transaction.
import type { Db as JobDatabase } from 'pg-boss'
import type { ParameterOrJSON, Sql } from 'postgres'

/** A parameter as node-postgres sends it: dates as ISO text, objects as JSON text, the rest as they are. */
function asNodePostgresSends(value: unknown): ParameterOrJSON<never> {
  if (value instanceof Date) return value.toISOString()
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !Buffer.isBuffer(value)) return JSON.stringify(value)
  return value as ParameterOrJSON<never>
}

export function jobDatabaseOverPostgresJs(client: Sql): JobDatabase {
  return {
    async executeSql(text, values) {
      if (values && values.length > 0) return { rows: [...await client.unsafe(text, values.map(asNodePostgresSends))] }
      const reserved = await client.reserve()
      try {
        const result = await reserved.unsafe(text).simple()
        // Several statements give one result each; their rows together, as pg-boss reads node-postgres's array.
        const rows = result.length > 0 && Array.isArray(result[0]) ? (result as unknown as unknown[][]).flat() : [...result]
        return { rows }
      } catch (err) {
        await reserved.unsafe('ROLLBACK').catch(() => undefined)
        throw err
      } finally {
        reserved.release()
      }
    },
  }
}
