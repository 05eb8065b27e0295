import { and, eq, isNull, like, ne, notInArray } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { files, providers, settings } from '../../db/schema.ts';

/** Who uploaded a file: a provider's accounts share one slot; a platform account has its own. */
export type FileOwner = { providerId: number } | { accountId: number };

const FILE_URL_PREFIX = '/system/file?id=';

export class FileRepository {
  async insert(db: Executor, values: typeof files.$inferInsert): Promise<void> {
    await db.insert(files).values(values);
  }

  async findById(db: Executor, id: string) {
    const [row] = await db.select().from(files).where(eq(files.id, id));
    return row;
  }

  /** The provider whose account uploaded file `id`: null for a platform account, undefined for no such file. */
  async uploaderProvider(db: Executor, id: string): Promise<number | null | undefined> {
    const [row] = await db.select({ providerId: files.providerId }).from(files).where(eq(files.id, id));
    return row?.providerId;
  }

  /** Ids of stored files some provider or the platform setting shows as its logo. */
  private async referencedIds(db: Executor): Promise<string[]> {
    const fromProviders = await db
      .select({ url: providers.logoUrl })
      .from(providers)
      .where(like(providers.logoUrl, `${FILE_URL_PREFIX}%`));
    const fromSettings = await db
      .select({ value: settings.value })
      .from(settings)
      .where(eq(settings.key, 'system.platform'));
    const urls = [
      ...fromProviders.map((row) => row.url),
      ...fromSettings.map((row) => (row.value as { logoUrl?: unknown } | null)?.logoUrl),
    ];
    return urls.flatMap((url) =>
      typeof url === 'string' && url.startsWith(FILE_URL_PREFIX) ? [url.slice(FILE_URL_PREFIX.length)] : [],
    );
  }

  /** Deletes the owner's files that nothing shows, except `keep`: uploads replace, never accumulate. */
  async deleteUnused(db: Executor, owner: FileOwner, keep: string): Promise<number> {
    const used = [keep, ...(await this.referencedIds(db))];
    const ownedBy =
      'providerId' in owner
        ? eq(files.providerId, owner.providerId)
        : and(isNull(files.providerId), eq(files.uploadedBy, owner.accountId));
    const deleted = await db
      .delete(files)
      .where(and(ownedBy, ne(files.id, keep), notInArray(files.id, used)))
      .returning({ id: files.id });
    return deleted.length;
  }
}
