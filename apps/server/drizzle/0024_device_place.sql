ALTER TABLE "alarm" ADD COLUMN "room_id" integer;--> statement-breakpoint
ALTER TABLE "alarm" ADD COLUMN "area_id" integer;--> statement-breakpoint
ALTER TABLE "alarm" ADD COLUMN "caregiver_id" integer;--> statement-breakpoint
ALTER TABLE "device" ADD COLUMN "place_room_id" integer;--> statement-breakpoint
ALTER TABLE "device" ADD COLUMN "place_bed_id" integer;--> statement-breakpoint
ALTER TABLE "device" ADD COLUMN "place_area_id" integer;--> statement-breakpoint
ALTER TABLE "device" ADD COLUMN "place_resident_id" integer;--> statement-breakpoint
ALTER TABLE "device" ADD COLUMN "place_caregiver_id" integer;--> statement-breakpoint
ALTER TABLE "device" ADD CONSTRAINT "device_place_room_id_room_id_fk" FOREIGN KEY ("place_room_id") REFERENCES "public"."room"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device" ADD CONSTRAINT "device_place_bed_id_bed_id_fk" FOREIGN KEY ("place_bed_id") REFERENCES "public"."bed"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device" ADD CONSTRAINT "device_place_area_id_area_id_fk" FOREIGN KEY ("place_area_id") REFERENCES "public"."area"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device" ADD CONSTRAINT "device_place_resident_id_resident_id_fk" FOREIGN KEY ("place_resident_id") REFERENCES "public"."resident"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device" ADD CONSTRAINT "device_place_caregiver_id_caregiver_id_fk" FOREIGN KEY ("place_caregiver_id") REFERENCES "public"."caregiver"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_place_room_idx" ON "device" USING btree ("place_room_id");--> statement-breakpoint
CREATE INDEX "device_place_bed_idx" ON "device" USING btree ("place_bed_id");--> statement-breakpoint
CREATE INDEX "device_place_area_idx" ON "device" USING btree ("place_area_id");--> statement-breakpoint
CREATE INDEX "device_place_resident_idx" ON "device" USING btree ("place_resident_id");--> statement-breakpoint
ALTER TABLE "device" ADD CONSTRAINT "device_one_place" CHECK (num_nonnulls("device"."place_room_id", "device"."place_bed_id", "device"."place_area_id", "device"."place_resident_id", "device"."place_caregiver_id") <= 1);