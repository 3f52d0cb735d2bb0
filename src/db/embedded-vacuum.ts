// Vacuum and analysis for the embedded database. On a server, autovacuum (a launcher process and its workers) does this;
// PGlite is one standalone backend and runs neither, so no table was ever vacuumed or analysed: the versions left by
// updates and deletes (sessions, jobs, usage and count rows, search documents, rule nodes) and their index entries
// stayed for good, the planner never had statistics, and nothing froze old rows against transaction-id wraparound
// (after about two billion writing transactions PostgreSQL refuses writes). This applies autovacuum's default
// thresholds, one table at a time: a table is vacuumed (and analysed) when its dead rows pass 50 + 20 % of its rows or
// its oldest unfrozen transaction id is 200 million old, and only analysed when its changes since the last analysis
// pass 50 + 10 %. Not autovacuum's vacuum after inserts (PostgreSQL 13+, for index-only scans): on PGlite the first
// one of an insert-only table reads and logs every page while the one connection waits (bench:soak: 672 ms on the
// month's decision records, and 80 MB more memory for the log), for scans the embedded database hardly makes.
import type { PGlite } from '@electric-sql/pglite'

export interface VacuumDone {
  /** The table, as `schema.table`. */
  table: string
  /** Vacuumed and analysed; false: analysed only. */
  vacuumed: boolean
}

/** Values kept per column for the planner (PostgreSQL's default is 100): ANALYZE samples 300 rows per unit. */
export const STATISTICS_TARGET = 25

/**
 * The target for a month's decision records. They arrive by the thousand a second, so the month's partition is due for
 * analysis every minute under load, and ANALYZE's cost is its sample: about one page read per row. On 300,000 records
 * (87 MB) the analysis took 85 ms warm and 265 ms cold at 25, 35 ms warm at 10, and held the one connection, so durable
 * answers waited that long for their commits. The list's queries read the set index whatever the statistics say:
 * their plans were the same at 10 as at 25.
 */
export const DECISION_RECORDS_STATISTICS_TARGET = 10

/**
 * A month's decision records are analysed again when they have doubled, not grown by a tenth. Even at target 10 an
 * analysis of a partition of about a million records read cold pages for 175-555 ms (bench:decisions, this machine),
 * and at a tenth it fell in every minute of load: each time, the durable answers waiting for their commits got that
 * as their p99. Their plans do not hang on fresh statistics (the list reads the set index), and on doubling a month
 * takes about 20 analyses however busy it is.
 */
export const DECISION_RECORDS_ANALYSE_SCALE = 1

/** The statement that finds the table most due, if any (pg_stat_user_tables: leaf tables and partitions). */
const MOST_DUE = `
  select format('%I.%I', s.schemaname, s.relname) as name, due.vacuum, t.decision_records
  from pg_stat_user_tables s
    join pg_class c on c.oid = s.relid
    cross join lateral (select greatest(c.reltuples, 0) as rows, age(c.relfrozenxid) > 200000000 as old,
      exists (select 1 from pg_inherits i join pg_class p on p.oid = i.inhparent where i.inhrelid = c.oid and p.relname = 'decision_records') as decision_records) t
    cross join lateral (select s.n_dead_tup > 50 + 0.2 * t.rows or t.old as vacuum,
      s.n_mod_since_analyze > 50 + (case when t.decision_records then ${DECISION_RECORDS_ANALYSE_SCALE} else 0.1 end) * t.rows as analyse) due
  where c.relkind = 'r' and (due.vacuum or due.analyse)
  order by t.old desc, greatest(s.n_dead_tup, s.n_mod_since_analyze) desc
  limit 1`

/** Vacuums or analyses the table most due, if one is; what it did, or null when nothing was due. */
export async function vacuumIfDue(client: PGlite): Promise<VacuumDone | null> {
  // The backend's counts of changes reach pg_stat_user_tables when it next reports them; this makes that report due
  // (PostgreSQL otherwise waits up to a second between reports, and PGlite's backend may not report while idle).
  await client.query('select pg_stat_force_next_flush()')
  const { rows } = await client.query<{ name: string; vacuum: boolean; decision_records: boolean }>(MOST_DUE)
  const due = rows[0]
  if (!due) return null
  // A smaller sample than a server's: PGlite's WebAssembly memory grows to hold ANALYZE's sample rows and never gives
  // it back. At the default target (30,000 rows) one analysis of a table of wide rows grew it from 189 to 272 MB for
  // good (and bench:soak's RSS by twice as much as without vacuum); at 25 (7,500 rows) it stayed at 189 MB.
  // The setting is the connection's own, so it is put back after.
  await client.exec(`SET default_statistics_target = ${due.decision_records ? DECISION_RECORDS_STATISTICS_TARGET : STATISTICS_TARGET}`)
  try {
    // The name is quoted by format('%I'), from the catalogue.
    await client.exec(due.vacuum ? `VACUUM (ANALYZE) ${due.name}` : `ANALYZE ${due.name}`)
  } finally {
    await client.exec('RESET default_statistics_target')
  }
  return { table: due.name, vacuumed: due.vacuum }
}
