// A worker thread's entry when the app runs from its TypeScript sources (`npm start` under tsx): Node 20 does not give
// a worker the module hooks the main thread was started with, so this registers tsx's and then loads the worker's
// .ts file. The compiled build (tests) starts its .js worker directly.
import { workerData } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

register()
await import(workerData.typescriptEntry)
