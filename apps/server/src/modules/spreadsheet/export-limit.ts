import { CONSTANTS } from '@vigil/contract';
import { invalid } from '../../core/app-error.ts';

/** An export reads at most as many rows as an import takes, so every export can be imported again. */
export const EXPORT_PAGE = { pageNum: 1, pageSize: CONSTANTS.spreadsheetImport.maxRows + 1 } as const;

/** Refuses an export that would be cut short rather than silently dropping rows. */
export const assertExportable = (total: number): void => {
  const max = CONSTANTS.spreadsheetImport.maxRows;
  if (total > max) throw invalid('export.tooMany', { max });
};
