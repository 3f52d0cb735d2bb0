// An island pairs a component with a check of the JSON props the server put in `data-props`,
// so the loader can mount any island without knowing its prop types.
import { createElement } from 'react'
import type { ComponentType, ReactElement } from 'react'

export interface IslandDefinition {
  render(props: unknown): ReactElement
}

export type IslandRegistry = Readonly<Record<string, IslandDefinition>>

export function defineIsland<P extends object>(
  component: ComponentType<P>,
  parseProps: (raw: unknown) => P,
): IslandDefinition {
  return { render: (raw) => createElement(component, parseProps(raw)) }
}

export { InvalidPropsError } from './invalid-props.ts'
