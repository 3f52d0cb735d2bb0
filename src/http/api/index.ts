import type { FastifyInstance } from 'fastify'
import { userApi } from './user.ts'

export async function apiRoutes(app: FastifyInstance) {
  await app.register(userApi, { prefix: '/user' })
}
