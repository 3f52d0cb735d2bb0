// Words the screener shows for facet values that are stored as flags.

const FLAG_LABELS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'adviceset.isPublic': { true: 'Public', false: 'Not public' },
  'adviceset.isStarter': { true: 'Starter', false: 'Not a starter' },
}

export function facetValueLabel(attribute: string, value: string): string {
  return FLAG_LABELS[attribute]?.[value] ?? value
}

/** The switch shown when the refinements leave nothing but the text alone finds something. */
export function withoutFiltersLabel(allHits: number): string {
  return `Show ${allHits} result${allHits === 1 ? '' : 's'} without filters`
}
