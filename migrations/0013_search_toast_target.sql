-- A search row is its hit, its words and their tsvectors: past the default ~2 KB PostgreSQL compresses the largest
-- values in place, and every search then decompresses each row it reads. Rows stay plain up to a full page; only
-- longer ones (long advice texts) are compressed or moved out.
ALTER TABLE "search_documents" SET (toast_tuple_target = 8160);
