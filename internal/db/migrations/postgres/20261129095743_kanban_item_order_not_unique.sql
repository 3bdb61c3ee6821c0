-- Drop index "kanbanitem_stage_id_position" from table: "kanban_items"
DROP INDEX "kanbanitem_stage_id_position";
-- Create index "kanbanitem_stage_id_position" to table: "kanban_items"
CREATE INDEX "kanbanitem_stage_id_position" ON "kanban_items" ("stage_id", "position");
