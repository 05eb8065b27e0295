import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { files } from '../../db/schema.ts';

export class FileRepository {
  async insert(db: Executor, values: typeof files.$inferInsert): Promise<void> {
    await db.insert(files).values(values);
  }

  async findById(db: Executor, id: string) {
    const [row] = await db.select().from(files).where(eq(files.id, id));
    return row;
  }
}
