export * from './owners.ts'
export * from './users.ts'
export * from './sessions.ts'
export * from './activity.ts'
