// Vacuum and analysis for the embedded database. On a server, autovacuum (a launcher process and its workers) does this;
// PGlite is one standalone backend and runs neither, so no table was ever vacuumed or analysed: the versions left by
// updates and deletes (sessions, jobs, usage and count rows, search documents, rule nodes) and their index entries
// stayed for good, and the planner never had statistics. This applies autovacuum's default thresholds, one table at a
// time, so that the one backend is never held for long: a table is vacuumed (and analysed) when its dead rows pass
// 50 + 20 % of its rows, or rows inserted since its last vacuum pass 1,000 + 20 % (for the visibility map, as autovacuum
// does since PostgreSQL 13), and only analysed when its changes since the last analysis pass 50 + 10 %.
import type { PGlite } from '@electric-sql/pglite'

export interface VacuumDone {
  /** The table, as `schema.table`. */
  table: string
  /** Vacuumed and analysed; false: analysed only. */
  vacuumed: boolean
}

/** The statement that finds the table most due, if any (pg_stat_user_tables: leaf tables and partitions). */
const MOST_DUE = `
  select format('%I.%I', s.schemaname, s.relname) as name,
    (s.n_dead_tup > 50 + 0.2 * t.rows or s.n_ins_since_vacuum > 1000 + 0.2 * t.rows) as vacuum
  from pg_stat_user_tables s
    join pg_class c on c.oid = s.relid
    cross join lateral (select greatest(c.reltuples, 0) as rows) t
  where c.relkind = 'r'
    and (s.n_dead_tup > 50 + 0.2 * t.rows or s.n_ins_since_vacuum > 1000 + 0.2 * t.rows or s.n_mod_since_analyze > 50 + 0.1 * t.rows)
  order by greatest(s.n_dead_tup, s.n_ins_since_vacuum, s.n_mod_since_analyze) desc
  limit 1`

/** Vacuums or analyses the table most due, if one is; what it did, or null when nothing was due. */
export async function vacuumIfDue(client: PGlite): Promise<VacuumDone | null> {
  // The backend's counts of changes reach pg_stat_user_tables when it next reports them; this makes that report due
  // (PostgreSQL otherwise waits up to a second between reports, and PGlite's backend may not report while idle).
  await client.query('select pg_stat_force_next_flush()')
  const { rows } = await client.query<{ name: string; vacuum: boolean }>(MOST_DUE)
  const due = rows[0]
  if (!due) return null
  // The name is quoted by format('%I'), from the catalogue.
  await client.exec(due.vacuum ? `VACUUM (ANALYZE) ${due.name}` : `ANALYZE ${due.name}`)
  return { table: due.name, vacuumed: due.vacuum }
}
