// Sealing secrets with AES-256-GCM under a key derived (HKDF-SHA256) from a configured secret and a purpose, so one
// configured secret gives independent keys: external API header values at rest (SECRET_KEY, purpose
// 'external-api-headers'); an API key's secret on its way to the copy page (SESSION_SECRET, 'api-key-reveal').
// A sealed text is base64url(iv ‖ tag ‖ ciphertext); tampering or the wrong key fails to unseal.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

function keyFor(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, '', purpose, 32))
}

export function seal(plain: string, secret: string, purpose: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret, purpose), iv)
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')
}

export function unseal(sealed: string, secret: string, purpose: string): string {
  const raw = Buffer.from(sealed, 'base64url')
  const decipher = createDecipheriv('aes-256-gcm', keyFor(secret, purpose), raw.subarray(0, 12))
  decipher.setAuthTag(raw.subarray(12, 28))
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
}
