// An island's JSON props from its `data-props` attribute, for React and plain-DOM islands alike.

export function readIslandProps(element: HTMLElement, name: string): unknown {
  try {
    return JSON.parse(element.dataset.props ?? '{}')
  } catch (error) {
    throw new Error(`Could not parse props of island ${name}`, { cause: error })
  }
}
