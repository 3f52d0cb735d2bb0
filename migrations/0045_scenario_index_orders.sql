CREATE INDEX "advice_scenarios_name_idx" ON "advice_scenarios" USING btree (lower("name"),"id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "advice_scenarios_name_trgm_idx" ON "advice_scenarios" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "advice_scenarios_created_by_idx" ON "advice_scenarios" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "advice_scenarios_updated_by_idx" ON "advice_scenarios" USING btree ("updated_by");