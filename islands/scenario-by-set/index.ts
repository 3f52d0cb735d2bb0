// The keyword-map form's scenario list follows the advice set chosen above it: only that set's scenarios are offered
// (the others' groups are hidden and disabled, so they cannot be picked by keyboard either), a scenario of another
// set is unselected, and the hint says when the set has none. The server checks the same on save; without this
// script the list shows every group and the server's message names the mismatch. Plain DOM, mounted by the loader.

export function mountScenarioBySet(element: HTMLElement): void {
  const sets = document.getElementById(element.dataset.setSelect ?? '')
  const scenarios = element.querySelector('select')
  const none = element.querySelector<HTMLElement>('[data-no-scenarios]')
  if (!(sets instanceof HTMLSelectElement) || !scenarios || !none) throw new Error('scenario-by-set: its selects are missing')
  const follow = () => {
    let offered = 0
    for (const group of scenarios.querySelectorAll('optgroup')) {
      const matches = group.dataset.adviceSetId === sets.value
      group.hidden = !matches
      group.disabled = !matches
      if (matches) offered += group.children.length
    }
    if (scenarios.selectedOptions[0]?.parentElement instanceof HTMLOptGroupElement && scenarios.selectedOptions[0].parentElement.disabled) scenarios.value = ''
    none.hidden = sets.value === '' || offered > 0
  }
  sets.addEventListener('change', follow)
  follow()
  element.dataset.islandState = 'mounted'
}
