CREATE INDEX "users_owner_name_idx" ON "users" USING btree ("owner_id","name","id");--> statement-breakpoint
CREATE INDEX "advice_sets_name_idx" ON "advice_sets" USING btree (lower("name"),"id");--> statement-breakpoint
CREATE INDEX "advice_sets_created_idx" ON "advice_sets" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "rule_nodes_questions_idx" ON "rule_nodes" USING btree ("rule_id") WHERE type = 'inputRequest' and deleted_at is null;