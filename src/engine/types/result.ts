import type { Value } from '../value.ts'

export type CoerceResult = { ok: true; value: Value } | { ok: false; code: string; message: string }

export function accepted(value: Value): CoerceResult {
  return { ok: true, value }
}

export function rejected(code: string, message: string): CoerceResult {
  return { ok: false, code, message }
}

const QUOTE_LIMIT = 40

/** The user's input as it appears inside a message: quoted, and shortened so a pasted essay stays readable. */
export function quote(text: string): string {
  const shown = text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT - 1)}…` : text
  return `"${shown}"`
}

/** Blank answers (nothing, empty or only spaces) mean "no value" for every type. */
export function isBlankInput(raw: unknown): boolean {
  return raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '')
}
