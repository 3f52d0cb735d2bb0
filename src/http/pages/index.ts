import type { FastifyInstance } from 'fastify'
import { authPages } from './auth.ts'
import { homePages } from './home.ts'
import { userPages } from './user.ts'

export async function pageRoutes(app: FastifyInstance) {
  await app.register(homePages)
  await app.register(authPages)
  await app.register(userPages)
}
