ALTER TABLE "alarm" ADD COLUMN "measure" jsonb;--> statement-breakpoint
-- Alarms raised before: the figures their detail kept (no limit was kept then).
UPDATE "alarm" SET "measure" = jsonb_build_object(
  'quantity', CASE "alert_type" WHEN 'HEART_ABNORMAL' THEN 'heartRate' WHEN 'BODY_MOVE' THEN 'movement' ELSE 'breathRate' END,
  'value', "detail"->'value', 'limit', NULL, 'side', NULL, 'seconds', "detail"->'duration'
) WHERE "alert_type" IN ('HEART_ABNORMAL', 'BREATH_ABNORMAL', 'BREATH_STOP', 'BODY_MOVE') AND jsonb_typeof("detail"->'duration') = 'number' AND jsonb_typeof("detail"->'value') = 'number';--> statement-breakpoint
UPDATE "alarm" SET "measure" = jsonb_build_object(
  'quantity', NULL, 'value', NULL, 'limit', NULL, 'side', NULL, 'seconds', "detail"->'duration'
) WHERE "alert_type" IN ('LEAVE_BED', 'NO_BODY_MOVE', 'NO_TURN_OVER') AND jsonb_typeof("detail"->'duration') = 'number';--> statement-breakpoint
UPDATE "alarm" SET "measure" = jsonb_build_object(
  'quantity', 'battery', 'value', "detail"->'percent', 'limit', NULL, 'side', NULL, 'seconds', NULL
) WHERE "alert_type" = 'LOW_BATTERY' AND jsonb_typeof("detail"->'percent') = 'number';--> statement-breakpoint
UPDATE "alarm" SET "measure" = jsonb_build_object(
  'quantity', NULL, 'value', NULL, 'limit', NULL, 'side', NULL, 'seconds', ("detail"->>'hours')::int * 3600
) WHERE "alert_type" = 'NO_MOTION' AND jsonb_typeof("detail"->'hours') = 'number';
