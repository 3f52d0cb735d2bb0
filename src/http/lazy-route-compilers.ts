// Route schemas compiled when their route is first asked, not when the app gets ready. Fastify's own compilers
// (Ajv for what comes in, fast-json-stringify for what goes out) would build a function for every schema of every
// route at start-up: about 1.1 s of CPU for this app's routes, paid by every process that starts it (an instance
// starting, each of the test suite's ~300 processes) while most routes are never asked in that process. The
// functions are the same ones, built with the same options, and kept once built.
import ajvCompiler from '@fastify/ajv-compiler'
import fastJsonStringifyCompiler from '@fastify/fast-json-stringify-compiler'
import type { FastifySchemaValidationError, FastifyServerOptions } from 'fastify'

type Compilers = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>
type ValidatorFactory = NonNullable<Compilers['buildValidator']>
type SerializerFactory = NonNullable<Compilers['buildSerializer']>

/** Ajv's functions report a failure on themselves (`validate.errors`), which Fastify reads after the call. */
interface Validate {
  (data: unknown): unknown
  errors?: FastifySchemaValidationError[] | null
}

/** Compilers for one app: like Fastify's own, one Ajv (and one serializer builder) per set of options in the app. */
export function lazyRouteCompilers(): Compilers {
  const ajvFromPool = ajvCompiler()
  const serializerFromPool = fastJsonStringifyCompiler()
  const buildValidator: ValidatorFactory = (externalSchemas, options) => {
    const compile = ajvFromPool(externalSchemas, options)
    return (route) => {
      let validate: Validate | undefined
      const lazy: Validate = (data) => (validate ??= compile(route))(data)
      Object.defineProperty(lazy, 'errors', { get: () => validate?.errors })
      // The factory's declared type is Ajv's whole ValidateFunction (schema, schemaEnv …); Fastify calls it and reads
      // `errors`, which is all this function is.
      return lazy as ReturnType<ReturnType<ValidatorFactory>>
    }
  }
  const buildSerializer: SerializerFactory = (externalSchemas, options) => {
    const compile = serializerFromPool(externalSchemas, options)
    return (route) => {
      let serialize: ((data: unknown) => string) | undefined
      return (data: unknown) => (serialize ??= compile(route))(data)
    }
  }
  return { buildValidator, buildSerializer }
}
