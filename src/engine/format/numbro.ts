import numbroModule from 'numbro'

// numbro's typings say `export default` inside a CommonJS package, so under NodeNext TypeScript sees the default
// import as `{ default: numbro }`; Node and bundlers hand over the function itself. This is the one place that
// bridges the two.
type Numbro = typeof numbroModule.default
export type NumbroFormat = numbroModule.default.Format
export const numbro = numbroModule as unknown as Numbro
