// authenticateApiKey: the Bearer secret is the only way in — not its stored hash, not a deleted key — and every
// refusal is a 401 saying what is wrong.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { openTestDatabase } from '../../helpers/database.ts'
import { createOwner } from '../../helpers/factories.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { apiKeys } from '../../../src/db/schema/index.ts'
import { authenticateApiKey, hashApiKeySecret } from '../../../src/services/delivery/api-keys.ts'
import { UnauthorizedError } from '../../../src/services/errors.ts'

const database = await openTestDatabase()
t.teardown(() => database.close())
const db = database.db
const ownerId = await createOwner(db)

t.test('a key authenticates with its secret and carries its settings', async (t) => {
  const { key, secret } = await createApiKey(db, { ownerId, environment: 'preview', allowedOrigins: ['https://partner.example'], rateLimit: 30 })
  t.match(secret, /^as_prev_[0-9a-f]{8}_[A-Za-z0-9_-]{32}$/)
  t.equal(key.prefix, secret.slice(0, secret.lastIndexOf('_', 16)), 'the prefix is the readable part before the random one')
  const auth = await authenticateApiKey(db, `Bearer ${secret}`)
  t.same(auth, { id: key.id, ownerId, prefix: key.prefix, environment: 'preview', audienceId: null, allowedAdviceSetIds: [], allowedOrigins: ['https://partner.example'], rateLimit: 30, adviceRequests: false, explain: true })
  t.same(await authenticateApiKey(db, `bearer   ${secret}`), auth, 'the scheme is case-insensitive')
})

t.test('the database holds only the SHA-256 of the secret, and that hash is no key', async (t) => {
  const { key, secret } = await createApiKey(db, { ownerId })
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, key.id))
  t.equal(row!.secretHash, hashApiKeySecret(secret))
  t.notOk(JSON.stringify(row).includes(secret.slice(-32)), 'no column holds the random part of the secret')
  await t.rejects(authenticateApiKey(db, `Bearer ${row!.secretHash}`), { status: 401, message: /malformed/ })
  await t.rejects(authenticateApiKey(db, `Bearer ${key.prefix}_${row!.secretHash.slice(0, 32)}`), { status: 401, message: /unknown/ })
})

t.test('refusals are 401s naming the problem', async (t) => {
  const { secret } = await createApiKey(db, { ownerId })
  await t.rejects(authenticateApiKey(db, undefined), new UnauthorizedError('An API key is required: send it as "Authorization: Bearer <key>".'))
  await t.rejects(authenticateApiKey(db, '  '), { status: 401, message: /required/ })
  await t.rejects(authenticateApiKey(db, `Basic ${secret}`), { status: 401, message: /Bearer scheme/ })
  await t.rejects(authenticateApiKey(db, 'Bearer not-a-key'), { status: 401, message: /malformed/ })
  await t.rejects(authenticateApiKey(db, `Bearer ${secret} extra`), { status: 401, message: /malformed/ })
  const tampered = secret.slice(0, -1) + (secret.endsWith('A') ? 'B' : 'A')
  await t.rejects(authenticateApiKey(db, `Bearer ${tampered}`), { status: 401, message: /unknown/ })
})
