import type { DownloadedFile } from '@vigil/contract/browser';

/** Hands downloaded bytes to the browser as a file. */
export const saveFile = (file: DownloadedFile, fallbackName: string) => {
  const url = URL.createObjectURL(new Blob([file.bytes as BlobPart], { type: file.contentType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.filename ?? fallbackName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
};
