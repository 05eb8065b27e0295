import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { settings } from '../../db/schema.ts';

export class SettingsRepository {
  async get(db: Executor, key: string): Promise<unknown> {
    const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
    return row?.value;
  }

  async insertIfAbsent(db: Executor, key: string, value: unknown, at: Date): Promise<void> {
    await db.insert(settings).values({ key, value, updatedAt: at }).onConflictDoNothing();
  }

  async put(db: Executor, key: string, value: unknown, at: Date): Promise<void> {
    await db
      .insert(settings)
      .values({ key, value, updatedAt: at })
      .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: at } });
  }
}
