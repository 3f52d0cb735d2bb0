// Password rules (SPEC §5: minimum 6) plus a refusal of commonly used passwords; argon2id hashing.
import { createHash, randomBytes } from 'node:crypto'
import { hash, verify } from '@node-rs/argon2'
import { dictionary } from '@zxcvbn-ts/language-common'
import { ValidationError } from '../errors.ts'

export const MIN_PASSWORD_LENGTH = 6
const MAX_PASSWORD_LENGTH = 256

let commonPasswords: Set<string> | undefined
function isCommon(password: string): boolean {
  commonPasswords ??= new Set(dictionary['passwords-common'] as string[])
  return commonPasswords.has(password.toLowerCase())
}

export function checkPasswordRules(password: string, field = 'password'): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new ValidationError(field, `Password must be at least ${MIN_PASSWORD_LENGTH} characters long.`)
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new ValidationError(field, `Password must be at most ${MAX_PASSWORD_LENGTH} characters long.`)
  }
  if (isCommon(password)) {
    throw new ValidationError(field, 'Password is too common: it appears in lists of frequently used passwords. Choose another.')
  }
}

export function hashPassword(password: string): Promise<string> {
  return hash(password)
}

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  // Without a hash we still spend comparable time, so timing does not tell whether an account exists.
  if (!passwordHash) { await hash(password); return false }
  return verify(passwordHash, password)
}

/** A single-use secret for a mailed link: the token goes out, only its SHA-256 is stored. */
export function newLinkToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url')
  return { token, tokenHash: hashLinkToken(token) }
}

export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}
