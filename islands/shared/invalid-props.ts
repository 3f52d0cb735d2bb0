// Thrown by an island's props check; kept apart from define-island.ts so React-free islands can use it.
export class InvalidPropsError extends Error {
  override readonly name = 'InvalidPropsError'
}
