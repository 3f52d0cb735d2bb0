// SPEC §4 and §8: the uploader's words, spelled exactly, and the rules that pick them.

export const PROCESSING = 'Processing uploaded file...'
export const SAVED = 'Saved!'
export const OOPS = 'Oops!'
export const UPLOAD_FAILED = 'The upload failed, try again.'
export const REMOVE_HEADING = 'Whoa!'
export const REMOVE_YES = 'Yes, delete now'
/** The server's message for a file over the limit (services/files/uploads.ts). */
export const SERVER_TOO_LARGE = 'File too large'
/** SPEC §4, §9: the progress bar of a finished upload hides after this long. */
export const HIDE_BAR_AFTER_MS = 2000

export function tooBigText(name: string, maxBytes: number): string {
  return `That file, ${name}, is too big. ${Math.round(maxBytes / (1024 * 1024))} MB is the max file size allowed.`
}

export function tooManyText(max: number): string {
  return `You can only attach ${max} file(s).`
}

export function removeText(name: string): string {
  return `Are you sure you want to remove ${name}?`
}

/** The whole percentage sent so far; above 99 the server is storing the file (PROCESSING). */
export function percentOf(loaded: number, total: number): number {
  if (total <= 0) return 0
  return Math.min(100, Math.floor((loaded / total) * 100))
}

/**
 * Of the files chosen, those that fit: too-big ones are refused one by one, and past the maximum count the extra ones
 * are dropped (SPEC §5: the error appears and the extra file is removed).
 */
export function admit<F extends { name: string; size: number }>(chosen: readonly F[], opts: { maxBytes: number; maxFiles: number | null; present: number }) {
  const tooBig = chosen.filter((file) => file.size > opts.maxBytes)
  const fitting = chosen.filter((file) => file.size <= opts.maxBytes)
  const room = opts.maxFiles === null ? fitting.length : Math.max(0, opts.maxFiles - opts.present)
  return { accepted: fitting.slice(0, room), tooBig, dropped: fitting.slice(room) }
}
