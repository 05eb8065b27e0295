CREATE TABLE "device_second" (
	"device_id" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"provider_id" integer,
	"seconds" "bytea" NOT NULL,
	CONSTRAINT "device_second_pk" PRIMARY KEY("device_id","minute")
);
--> statement-breakpoint
CREATE INDEX "device_second_minute_idx" ON "device_second" USING btree ("minute");--> statement-breakpoint
-- A late part of a minute (a device sending what it buffered) fills the seconds it carries and
-- keeps the others: a second is taken where its flags byte says a message came (bit 0).
CREATE FUNCTION vigil_overlay_seconds(written bytea, late bytea) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  merged bytea := written;
  i int;
BEGIN
  FOR i IN 0 .. (length(late) / 4) - 1 LOOP
    IF get_byte(late, i * 4 + 3) & 1 = 1 THEN
      merged := overlay(merged PLACING substring(late FROM i * 4 + 1 FOR 4) FROM i * 4 + 1 FOR 4);
    END IF;
  END LOOP;
  RETURN merged;
END
$$;
