-- A set moved from one team to another changes two teams' counts. The trigger of 0037 took the old owner's row first,
-- then the new one's, so two sets moved at once between the same two teams in opposite directions could each hold one
-- row and wait for the other: a deadlock, which PostgreSQL ends by failing one move. Both rows are now taken in
-- owner_id order, as every other writer of these rows takes them (a creation, a removal or a change of sharing takes one).
CREATE OR REPLACE FUNCTION owner_set_counts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO owner_set_counts (owner_id, live, shared)
  SELECT owner_id, sum(live)::int, sum(shared)::int FROM (
    SELECT OLD.owner_id, -1, CASE WHEN OLD.is_public OR OLD.is_starter THEN -1 ELSE 0 END WHERE TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL
    UNION ALL
    SELECT NEW.owner_id, 1, CASE WHEN NEW.is_public OR NEW.is_starter THEN 1 ELSE 0 END WHERE TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL
  ) AS change (owner_id, live, shared)
  GROUP BY owner_id ORDER BY owner_id
  ON CONFLICT (owner_id) DO UPDATE SET live = owner_set_counts.live + excluded.live, shared = owner_set_counts.shared + excluded.shared;
  RETURN NULL;
END $$;
