// Pages are sent with `Cache-Control: no-store`, so Back loads them again from the server. A browser may still keep
// a page in its back/forward cache and show it as it was when left: a rule tree without the node added since, or a
// signed-in page after sign-out. Such a restored page loads itself again, so what it shows is never older than Back.
export function reloadWhenRestoredFromHistory(): void {
  addEventListener('pageshow', (event) => {
    if (event.persisted) location.reload()
  })
}
