// Loaded with --import into every process `npm test` starts (scripts/run-tests.ts), before tap. tap gives each test an
// async-hook-domain, whose async hook with a destroy callback makes Node track the end of every promise: measured on
// the authorization matrix, 14 % of the process's CPU (registerDestroyHook, the hook's init and destroy, and the GC
// work they cause). The domain only decides which subtest an error thrown outside its awaits is charged to. Without
// it such an error still fails the file: an uncaught exception or unhandled rejection ends the process with its
// message and a non-zero exit, which the pool reports as "not ok" (checked by test/unit/test-pool/async-errors).
import asyncHooks from 'node:async_hooks'
import { syncBuiltinESMExports } from 'node:module'

const createHook = asyncHooks.createHook
const inert = { enable() { return this }, disable() { return this } } as unknown as asyncHooks.AsyncHook

asyncHooks.createHook = (callbacks) => (new Error().stack ?? '').includes('async-hook-domain') ? inert : createHook(callbacks)
// async-hook-domain imports createHook by name: the builtin's ESM bindings are updated to the replacement.
syncBuiltinESMExports()
