import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { providers } from '../../db/schema.ts';
import { invalid } from '../../core/app-error.ts';
import { FileRepository } from './file.repository.ts';

const files = new FileRepository();

/** Whose branding a logo is for: a provider (its parent looked up when not given) or the platform (null). */
export interface LogoShownBy {
  providerId: number | null;
  parentId?: number | null;
}

/**
 * The contract already admits only `/system/file?id=<uuid>`; this checks the file is one we
 * store (so a logo never points at nothing, or at a file deleted as unused) and that it belongs
 * with the branding it goes on: uploaded by a platform account, by the provider itself or by its
 * class 1 parent. Never another tenant's upload, not even by an administrator's hand, so no
 * tenant's accounts are shown a file another tenant uploaded.
 */
export const assertStoredLogo = async (
  db: Executor,
  url: string | null | undefined,
  shownBy: LogoShownBy,
): Promise<void> => {
  if (url === null || url === undefined) return;
  const refused = invalid('logoUrl.invalid').on('logoUrl');
  const id = new URLSearchParams(url.split('?')[1] ?? '').get('id');
  if (!id) throw refused;
  const uploader = await files.uploaderProvider(db, id);
  if (uploader === undefined) throw refused;
  if (uploader === null || uploader === shownBy.providerId) return;
  let parentId = shownBy.parentId;
  if (parentId === undefined && shownBy.providerId !== null) {
    const [own] = await db
      .select({ parentId: providers.parentId })
      .from(providers)
      .where(eq(providers.id, shownBy.providerId));
    parentId = own?.parentId ?? null;
  }
  if (uploader !== parentId) throw refused;
};
