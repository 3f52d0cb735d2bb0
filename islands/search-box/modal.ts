// The detached modal (SPEC.md §2, narrow screens): the search form fixed over the page while it is in use.
// Opened by the first stage on focus, so it appears at once; closed by the panel (blur, Cancel).

export function setModal(form: HTMLFormElement, open: boolean): void {
  const modal = open && form.dataset.detached === 'true'
  form.dataset.modal = String(modal)
  document.documentElement.classList.toggle('search-modal-open', modal)
}
