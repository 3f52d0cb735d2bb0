-- Beginnings of up to six letters (prefix-tokens.ts), so a word typed that far is still one posting list; the
-- search column is generated from prefix_terms and follows.
UPDATE "search_documents" SET "prefix_terms" = coalesce((SELECT string_agg(DISTINCT '^' || left(w, n), ' ') FROM unnest(string_to_array("name_terms" || ' ' || "name_alt_terms" || ' ' || "text_terms", ' ')) AS w, generate_series(1, 6) AS n WHERE length(w) >= n), '');
